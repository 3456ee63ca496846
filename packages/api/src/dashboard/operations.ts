/** The OpenAPI entries of this area's routes: loaded only by the document (openapi/document.ts). */
import type { Operation } from "../openapi/operation.ts";

export const DASHBOARD_OPERATIONS: Record<string, Operation> = {
  "GET /": {
    summary: "Dashboard (local stack)",
    description:
      "A gallery of jobs (thumbnails with status badges, the spritesheet scrubbing on hover, the video on click) with live status, a job's timeline, previews and a submit form. The page's API key is entered in the page.",
    tag: "dashboard",
    auth: false,
    response: {
      status: 200,
      contentType: "text/html",
      example: "<!doctype html>...",
      description: "The dashboard page.",
    },
    errors: [],
  },
  "GET /dashboard/app.js": {
    summary: "Dashboard script",
    description: "The dashboard's own script; no third-party code.",
    tag: "dashboard",
    auth: false,
    response: {
      status: 200,
      contentType: "text/javascript",
      example: "/* script */",
      description: "The script.",
    },
    errors: [],
  },
  "GET /dashboard/client.js": {
    summary: "Dashboard's API client",
    description:
      "@reelay/client bundled for the browser (esbuild): the dashboard's script calls the API through it.",
    tag: "dashboard",
    auth: false,
    response: {
      status: 200,
      contentType: "text/javascript",
      example: "/* @reelay/client */",
      description: "The client module.",
    },
    errors: [],
  },
  "GET /dashboard/style.css": {
    summary: "Dashboard styles",
    description: "The dashboard's stylesheet.",
    tag: "dashboard",
    auth: false,
    response: {
      status: 200,
      contentType: "text/css",
      example: "/* styles */",
      description: "The stylesheet.",
    },
    errors: [],
  },
  "GET /dashboard/models.json": {
    summary: "Models for the dashboard's submit form",
    description:
      "Per model, the durations, resolutions and ratios the form offers, from the catalog.",
    tag: "dashboard",
    auth: false,
    response: {
      status: 200,
      contentType: "application/json",
      example: { data: [{ id: "gamma-3.1" }] },
      description: "The form's models.",
    },
    errors: [],
  },
};
