// node:http for the bundled functions, loaded with require (stacks/defaults.ts aliases "http" and
// "node:http" here). An ESM import of node:http makes Node 22 build its ESM namespace, which reads
// every export, and one of them loads undici: about 50 ms of a cold start that a function calling
// AWS only through the SDK's http client never uses (fetch still loads undici when it is called).
// Taken with process.getBuiltinModule, not require("node:http"): the bundler's alias would turn
// that require back into this file, and the SDK would get an empty module for any http:// endpoint.
module.exports = process.getBuiltinModule("node:http");
