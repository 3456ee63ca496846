export type * from "./types.ts";
export { createCatalog, defaultCatalog, loadCatalog, parseCatalogFile } from "./catalog.ts";
