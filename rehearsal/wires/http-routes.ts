/**
 * An HTTP API's routes as the template declares them, and route selection as API Gateway does it:
 * a full match of path and method first (a literal segment beating a path variable), then a
 * greedy `{proxy+}` path (the longest prefix first), then `$default`; at each step a route naming
 * the method beats `ANY`, which only catches the methods a resource does not define.
 * (docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-routes.html)
 */
import { functionOf, integrationOf, isRecord, refOf, resourcesOfType } from "./template.ts";
import type { Template } from "./types.ts";

/** HTTP APIs' maximum integration timeout, and the default when TimeoutInMillis is unset. */
const MAX_INTEGRATION_TIMEOUT_MS = 30_000;

type Segment = { literal: string } | { variable: string; greedy: boolean };

export interface Route {
  routeKey: string;
  method: string;
  segments: Segment[];
  functionId: string;
  timeoutMs: number;
}

export interface RouteMatch {
  route: Route;
  pathParameters?: Record<string, string>;
}

function parseSegments(path: string, routeKey: string): Segment[] {
  const parts = path.split("/").slice(1);
  return parts.map((part, i) => {
    const variable = /^\{([^{}]+?)(\+)?\}$/.exec(part);
    if (!variable?.[1]) return { literal: part };
    const greedy = variable[2] === "+";
    if (greedy && i !== parts.length - 1) {
      throw new Error(`Route ${routeKey}: a greedy path variable must end the path`);
    }
    return { variable: variable[1], greedy };
  });
}

function integrationFunction(template: Template, integrationId: string): [string, number] {
  const integration = resourcesOfType(template, "AWS::ApiGatewayV2::Integration").find(
    ([id]) => id === integrationId,
  )?.[1];
  const where = `Integration ${integrationId}`;
  if (!integration) throw new Error(`${where} is not in the template`);
  if (integration.IntegrationType !== "AWS_PROXY") {
    throw new Error(
      `${where}: IntegrationType ${String(integration.IntegrationType)} is not wired`,
    );
  }
  if (integration.PayloadFormatVersion !== "2.0") {
    throw new Error(`${where}: only payload format 2.0 is wired`);
  }
  const timeout = integration.TimeoutInMillis;
  const timeoutMs = Math.min(
    typeof timeout === "number" ? timeout : MAX_INTEGRATION_TIMEOUT_MS,
    MAX_INTEGRATION_TIMEOUT_MS,
  );
  return [functionOf(template, integration.IntegrationUri, where), timeoutMs];
}

function routeOf(template: Template, id: string, props: Record<string, unknown>): Route {
  const routeKey = String(props.RouteKey);
  const auth = props.AuthorizationType ?? "NONE";
  // An authorizer the rehearsal does not run would leave the route open here and closed in AWS.
  if (auth !== "NONE")
    throw new Error(`Route ${id}: AuthorizationType ${String(auth)} is not wired`);
  const integrationId = integrationOf(props.Target);
  if (!integrationId) throw new Error(`Route ${id} (${routeKey}) has no integration target`);
  const [functionId, timeoutMs] = integrationFunction(template, integrationId);
  if (routeKey === "$default")
    return { routeKey, method: "$default", segments: [], functionId, timeoutMs };
  const space = routeKey.indexOf(" ");
  const method = routeKey.slice(0, space).toUpperCase();
  const path = routeKey.slice(space + 1);
  if (space < 0 || !path.startsWith("/")) throw new Error(`Route ${id}: bad RouteKey ${routeKey}`);
  return { routeKey, method, segments: parseSegments(path, routeKey), functionId, timeoutMs };
}

/** The HTTP API the template holds (or the one named), with its routes and CORS configuration. */
export function readHttpApi(template: Template, apiLogicalId?: string) {
  const apis = resourcesOfType(template, "AWS::ApiGatewayV2::Api").filter(
    ([id, props]) => props.ProtocolType === "HTTP" && (!apiLogicalId || id === apiLogicalId),
  );
  const [found, ...others] = apis;
  if (!found || others.length) {
    const which = apiLogicalId ? ` ${apiLogicalId}` : "";
    throw new Error(`Expected one HTTP API${which}, found ${apis.length}`);
  }
  const [apiId, api] = found;
  const routes = resourcesOfType(template, "AWS::ApiGatewayV2::Route")
    .filter(([, props]) => refOf(props.ApiId) === apiId)
    .map(([id, props]) => routeOf(template, id, props));
  const stages = resourcesOfType(template, "AWS::ApiGatewayV2::Stage")
    .filter(([, props]) => refOf(props.ApiId) === apiId)
    .map(([, props]) => String(props.StageName));
  const cors = isRecord(api.CorsConfiguration) ? api.CorsConfiguration : undefined;
  return { logicalId: apiId, routes, stages, cors };
}

/** How specific a route's path is: its literal segments, leftmost first (1 literal, 0 variable). */
const specificity = (route: Route) => route.segments.map((s) => ("literal" in s ? 1 : 0));

function compareSpecificity(a: Route, b: Route): number {
  const [sa, sb] = [specificity(a), specificity(b)];
  for (let i = 0; i < Math.max(sa.length, sb.length); i++) {
    if ((sa[i] ?? 0) !== (sb[i] ?? 0)) return (sb[i] ?? 0) - (sa[i] ?? 0);
  }
  return sb.length - sa.length;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The path parameters if the route's path matches, undefined if it does not. */
function matchPath(route: Route, parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (const [i, segment] of route.segments.entries()) {
    if ("literal" in segment) {
      if (decode(parts[i] ?? "") !== segment.literal || i >= parts.length) return undefined;
    } else if (segment.greedy) {
      const rest = parts.slice(i).join("/");
      if (rest === "") return undefined;
      params[segment.variable] = decode(rest);
      return params;
    } else {
      const part = parts[i];
      if (!part) return undefined;
      params[segment.variable] = decode(part);
    }
  }
  return parts.length === route.segments.length ? params : undefined;
}

const isGreedy = (route: Route) => route.segments.some((s) => "greedy" in s && s.greedy);

export function selectRoute(routes: Route[], method: string, path: string): RouteMatch | undefined {
  const parts = path.split("/").slice(1);
  const candidates = routes
    .filter((r) => r.method === method || r.method === "ANY")
    .flatMap((route) => {
      const params = route.method === "$default" ? undefined : matchPath(route, parts);
      return params ? [{ route, params }] : [];
    });
  candidates.sort(
    (a, b) =>
      Number(isGreedy(a.route)) - Number(isGreedy(b.route)) ||
      compareSpecificity(a.route, b.route) ||
      Number(a.route.method === "ANY") - Number(b.route.method === "ANY"),
  );
  const best = candidates[0];
  if (best) {
    const { params } = best;
    return Object.keys(params).length
      ? { route: best.route, pathParameters: params }
      : { route: best.route };
  }
  const fallback = routes.find((r) => r.routeKey === "$default");
  return fallback ? { route: fallback } : undefined;
}
