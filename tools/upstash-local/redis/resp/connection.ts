/** @module One pipelined RESP2 connection to a real Redis, replies matched to commands in order. */
import { connect as netConnect, type Socket } from "node:net";
import { connect as tlsConnect } from "node:tls";
import { BackendUnavailableError, ReplyError, type Args, type Reply } from "../reply.ts";
import { RespParser } from "./parser.ts";
import { encodeCommand } from "./writer.ts";

/** Where and how to connect, parsed from a `redis://` URL. */
export interface RedisTarget {
  host: string;
  port: number;
  tls: boolean;
  username?: string | undefined;
  password?: string | undefined;
  db: number;
}

interface Waiter {
  resolve(reply: Reply): void;
  reject(err: Error): void;
}

/**
 * One pipelined RESP2 connection. Commands are written in order and replies matched to them in
 * order (FIFO). Each `send` writes its whole batch with a single `write`, so a MULTI ... EXEC block
 * can't be interleaved with another request's commands. The socket is opened lazily and reopened
 * on the next `send` after it drops; commands in flight when it drops are failed, not retried,
 * because they may already have run.
 */
export class RespConnection {
  private socket: Socket | undefined;
  private waiters: Waiter[] = [];
  private closed = false;

  constructor(
    private readonly target: RedisTarget,
    private readonly connectTimeoutMs: number,
  ) {}

  /** Commands sent but not yet answered; used to pick the least busy connection. */
  get inFlight(): number {
    return this.waiters.length;
  }

  send(commands: Args[]): Promise<Reply[]> {
    if (this.closed) return Promise.reject(new BackendUnavailableError("ERR backend is closed"));
    if (commands.length === 0) return Promise.resolve([]);
    const socket = this.socket ?? this.open();
    return new Promise((resolve, reject) => {
      const replies: Reply[] = [];
      let failed = false;
      for (let i = 0; i < commands.length; i++) {
        this.waiters.push({
          resolve: (reply) => {
            replies.push(reply);
            if (replies.length === commands.length) resolve(replies);
          },
          reject: (err) => {
            if (!failed) reject(err);
            failed = true;
          },
        });
      }
      socket.write(Buffer.concat(commands.map(encodeCommand)));
    });
  }

  close(): Promise<void> {
    this.closed = true;
    const socket = this.socket;
    if (socket === undefined) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once("close", () => resolve());
      socket.end();
      setTimeout(() => socket.destroy(), 1000).unref();
    });
  }

  private open(): Socket {
    const { host, port } = this.target;
    const socket = this.target.tls ? tlsConnect({ host, port, servername: host }) : netConnect({ host, port });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 30_000);
    socket.setTimeout(this.connectTimeoutMs, () => this.drop(socket, new Error("connect timeout")));
    socket.once(this.target.tls ? "secureConnect" : "connect", () => socket.setTimeout(0));
    const parser = new RespParser();
    socket.on("data", (chunk: Buffer) => {
      let replies: Reply[];
      try {
        replies = parser.push(chunk);
      } catch (err) {
        this.drop(socket, err instanceof Error ? err : new Error(String(err)));
        return;
      }
      for (const reply of replies) {
        const waiter = this.waiters.shift();
        if (waiter === undefined) {
          this.drop(socket, new Error("reply without a pending command"));
          return;
        }
        waiter.resolve(reply);
        if (this.socket !== socket) return; // the handshake failed and dropped it
      }
    });
    socket.on("error", (err) => this.drop(socket, err));
    socket.on("close", () => this.drop(socket, new Error("connection closed")));
    this.handshake(socket);
    return socket;
  }

  /** AUTH and SELECT go first on every new socket; if either fails the socket is dropped. */
  private handshake(socket: Socket): void {
    const { username, password, db } = this.target;
    const commands: Args[] = [];
    if (password !== undefined) commands.push(username !== undefined ? ["AUTH", username, password] : ["AUTH", password]);
    if (db !== 0) commands.push(["SELECT", String(db)]);
    for (const args of commands) {
      this.waiters.push({
        resolve: (reply) => {
          if (reply instanceof ReplyError) this.drop(socket, new Error(`${args[0]} failed: ${reply.message}`));
        },
        reject: () => undefined,
      });
    }
    if (commands.length > 0) socket.write(Buffer.concat(commands.map(encodeCommand)));
  }

  private drop(socket: Socket, cause: Error): void {
    if (this.socket !== socket) return;
    this.socket = undefined;
    socket.destroy();
    const waiters = this.waiters;
    this.waiters = [];
    const error = new BackendUnavailableError(`ERR connection to Redis failed: ${cause.message}`);
    for (const waiter of waiters) waiter.reject(error);
  }
}
