/**
 * @module A user's data as a whole: the paged export and the erase across every store.
 */
export {
  ERASE_CALLS_PER_REQUEST,
  ERASE_SESSIONS_PER_CALL,
  ERASE_TRACES_PER_CALL,
  EXPORT_FACTS_PER_PAGE,
  EXPORT_PAGE_BYTES,
  EXPORT_SESSIONS_PER_PAGE,
  eraseUser,
  exportUser,
  type EraseProgress,
  type ExportPage,
} from "./user-data.ts";
