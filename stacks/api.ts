/**
 * reelay's HTTP API on AWS: one function behind API Gateway, and what it may touch; and POST /mcp,
 * the MCP server in a function of its own that calls this API with the caller's key.
 */
import type * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import type * as events from "aws-cdk-lib/aws-events";
import type * as s3 from "aws-cdk-lib/aws-s3";
import type * as sfn from "aws-cdk-lib/aws-stepfunctions";
import { Api, type Config, Function as SstFunction, type Stack as SstStack } from "sst/constructs";
import {
  allowObjects,
  allowListPrefix,
  allowUploadStaging,
  allowPutEvents,
  allowStopExecution,
  allowTable,
  allowWake,
  denyAuditChanges,
} from "./permissions.ts";

interface ApiScope {
  table: dynamodb.ITable;
  bucket: s3.IBucket;
  bus: events.IEventBus;
  machine: sfn.StateMachine;
  environment: Record<string, string>;
  apiKey: Config.Secret;
  dispatchArn: string;
}

export function createApi(
  stack: SstStack,
  scope: ApiScope,
): { api: Api; fn: SstFunction; mcp: SstFunction } {
  const { table, bucket } = scope;
  const fn = new SstFunction(stack, "ApiFunction", {
    handler: "functions/api.handler",
    timeout: 30,
    // Cancel stops executions by name, so the API knows the machine.
    environment: { ...scope.environment, REELAY_STATE_MACHINE_ARN: scope.machine.stateMachineArn },
    bind: [scope.apiKey],
  });
  allowTable(
    fn,
    table,
    ["GetItem", "BatchGetItem", "PutItem", "UpdateItem", "DeleteItem", "Query"],
    "all",
  );
  denyAuditChanges(fn, table);
  // Presigned links to finished outputs are signed with this role, so it reads outputs/.
  allowObjects(fn, bucket, "outputs/", ["GetObject"]);
  // POST /v1/images/edits stores the uploaded images and passes them upstream as presigned links;
  // POST /v1/uploads stores uploads, and reading one (HeadObject) is GetObject's grant. The JSON
  // form's presigned PUT is signed with this role (PutObject), and completing it copies the staged
  // bytes to the upload (GetObject and PutObject) and deletes the staging.
  allowObjects(fn, bucket, "uploads/", ["PutObject", "GetObject"]);
  allowUploadStaging(fn, bucket);
  // A HEAD of an upload not there (an unknown id; a pending upload's, before it is completed) is
  // 404, not 403, only with ListBucket on uploads/.
  allowListPrefix(fn, bucket, "uploads/");
  // Jobs go into the admission queue; the Dispatch function starts their executions.
  allowWake(fn, scope.dispatchArn);
  // POST /v1/jobs/{id}/cancel stops the job's execution.
  allowStopExecution(fn, scope.machine);
  // A job that cannot be started is failed by the API itself, which then announces it.
  allowPutEvents(fn, scope.bus);

  // MCP (functions/mcp.ts): a client of this API, with no grant of its own, so it can do only what
  // the caller's key can. Its API's URL is set below, once the API exists.
  const mcp = new SstFunction(stack, "McpFunction", {
    handler: "functions/mcp.handler",
    timeout: 30,
    environment: scope.environment,
  });

  // Bearer auth is checked by the API function itself on every /v1 route (one key store, the
  // same code path locally and on AWS); API Gateway routes carry no authorizer of their own.
  const api = new Api(stack, "Api", {
    accessLog: { retention: "one_month" },
    routes: {
      "GET /healthz": fn,
      "GET /openapi.json": fn,
      "ANY /v1/{proxy+}": fn,
      "POST /mcp": mcp,
      "GET /mcp": mcp,
      "DELETE /mcp": mcp,
    },
  });
  mcp.addEnvironment("REELAY_API_URL", api.url);
  return { api, fn, mcp };
}
