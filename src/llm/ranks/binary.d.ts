// A rank table binary (scripts/rank-binaries.ts), bundled by wrangler as a `Data` module: its bytes.
declare module "*.bin" {
  const data: ArrayBuffer;
  export default data;
}
