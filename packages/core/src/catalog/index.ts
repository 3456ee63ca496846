export type * from "./types.ts";
export { createCatalog, defaultCatalog, loadCatalog, parseCatalogFile } from "./catalog.ts";
export { catalogFileSchema, modelSpecSchema } from "./file-schema.ts";
export { builtInModels } from "./families/index.ts";
