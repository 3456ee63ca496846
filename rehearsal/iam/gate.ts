/**
 * The rehearsal's IAM gate: every AWS call a function makes is checked here, as IAM would check it,
 * against the identity policies of the role whose credentials signed it. Each authorization the
 * call needs (requests.ts) is judged by the maintained evaluator (evaluate.ts); the call passes
 * only if all are allowed. Every call is recorded, and the gate can tell afterwards which granted
 * (action, resource) pairs no allowed request used: grants the template could drop.
 */
import type { AwsCall } from "../aws/call.ts";
import { type Evaluation, evaluate } from "./evaluate.ts";
import { grantKey, grantsOf, type PolicyDocument } from "./grants.ts";
import { type AccountFacts, type IamRequest, iamRequestsFor, requestKey } from "./requests.ts";
import { type PreparedRole, prepareRole } from "./prepared-role.ts";
import { describeRequest } from "./reasons.ts";

export type { PolicyDocument } from "./grants.ts";

export interface Role {
  name: string;
  arn: string;
  policies: { name: string; document: PolicyDocument }[];
}

export interface Decision {
  request: IamRequest;
  allowed: boolean;
  /**
   * For a denial, a sentence a person acts on: which action on which resource, implicit (no
   * statement allows it) or explicit (which policy/statement denies).
   */
  reason?: string;
}

export interface CallVerdict {
  allowed: boolean;
  decisions: Decision[];
}

/** An (action, resource) pair of an Allow statement that no allowed request used. */
export interface UnusedGrant {
  role: string;
  policy: string;
  /** The statement's index in the policy's Statement list, from 0. */
  statement: number;
  action: string;
  resource: string;
}

/** The role recorded for a call signed with an access key that belongs to no role. */
export const UNKNOWN_ROLE = "(unknown credentials)";

interface Recorded {
  role: string;
  call: AwsCall;
  verdict?: CallVerdict;
}

export class IamGate {
  readonly #roles: ReadonlyMap<string, Role>;
  readonly #facts: AccountFacts;
  readonly #prepared = new Map<string, PreparedRole>();
  readonly #evaluations = new Map<string, Promise<Evaluation>>();
  readonly #used = new Set<string>();
  readonly #recorded: Recorded[] = [];
  #lookups = 0;

  /** Roles are told apart by name: keys that map to one name share its cache and its grants. */
  constructor(roles: ReadonlyMap<string /* accessKeyId */, Role>, facts: AccountFacts) {
    this.#roles = roles;
    this.#facts = facts;
    this.rolesChanged();
  }

  /**
   * The roles' policies as a deploy left them (the map given to the constructor, changed in
   * place): each role is prepared again and no earlier verdict is reused, as IAM judges every call
   * on the policies of the moment.
   */
  rolesChanged(): void {
    this.#prepared.clear();
    this.#evaluations.clear();
    for (const role of this.#roles.values())
      if (!this.#prepared.has(role.name))
        this.#prepared.set(role.name, prepareRole(role, this.#facts.accountId));
  }

  /**
   * The verdict on one call. A call the gate cannot map (an unknown operation, an input without
   * what its authorization depends on) is recorded as denied and rethrown: the gateway fails it.
   */
  async authorize(call: AwsCall): Promise<CallVerdict> {
    const role = this.#roles.get(call.accessKeyId);
    // Recorded before any await, so that calls() keeps the order the calls came in.
    const entry: Recorded = { role: role?.name ?? UNKNOWN_ROLE, call };
    this.#recorded.push(entry);
    if (role === undefined) {
      entry.verdict = unknownCredentials(call, this.#facts);
      return entry.verdict;
    }
    try {
      const requests = iamRequestsFor(call, this.#facts);
      const decisions = await Promise.all(requests.map((r) => this.#decide(role.name, r)));
      entry.verdict = { allowed: decisions.every((d) => d.allowed), decisions };
      return entry.verdict;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      entry.verdict = {
        allowed: false,
        decisions: [{ request: callAsRequest(call), allowed: false, reason }],
      };
      throw error;
    }
  }

  /** What was recorded, in the order the calls came in (a call still being judged is left out). */
  calls(): { role: string; call: AwsCall; verdict: CallVerdict }[] {
    return this.#recorded.flatMap(({ role, call, verdict }) =>
      verdict === undefined ? [] : [{ role, call, verdict }],
    );
  }

  /** Each Allow statement's (action, resource) pair that no allowed request used, in policy order. */
  unusedGrants(): UnusedGrant[] {
    return this.grantUse()
      .filter((grant) => !grant.used)
      .map(({ role, policy, statement, action, resource }) => ({
        role,
        policy,
        statement,
        action,
        resource,
      }));
  }

  /** Each Allow statement's (action, resource) pair, in policy order, and whether one was used. */
  grantUse(): (UnusedGrant & { used: boolean })[] {
    return [...this.#prepared.values()].flatMap((role) =>
      grantsOf(role.policies.map((p) => ({ name: p.name, document: p.policy }))).map((grant) => ({
        role: role.name,
        ...grant,
        used: this.#used.has(grantKey(role.name, grant)),
      })),
    );
  }

  /** How many authorizations were judged, and how many of them the evaluator actually ran for. */
  stats(): { lookups: number; evaluations: number } {
    return { lookups: this.#lookups, evaluations: this.#evaluations.size };
  }

  async #decide(roleName: string, request: IamRequest): Promise<Decision> {
    this.#lookups++;
    const key = `${roleName}\n${requestKey(request)}`;
    let evaluation = this.#evaluations.get(key);
    if (evaluation === undefined) {
      evaluation = this.#evaluate(roleName, request);
      this.#evaluations.set(key, evaluation);
      // A failure (a policy that does not validate) is not kept: the next call meets it again.
      evaluation.catch(() => this.#evaluations.delete(key));
    }
    const { allowed, reason } = await evaluation;
    return reason === undefined ? { request, allowed } : { request, allowed, reason };
  }

  async #evaluate(roleName: string, request: IamRequest): Promise<Evaluation> {
    const role = this.#prepared.get(roleName) as PreparedRole;
    const evaluation = await evaluate(role, request);
    for (const grant of evaluation.used) this.#used.add(grantKey(roleName, grant));
    return evaluation;
  }
}

/** A call the gate could not map, named as its service and operation for the record. */
function callAsRequest(call: AwsCall): IamRequest {
  return { action: `${call.service}:${call.operation}`, resource: "*", context: {} };
}

/**
 * A key that belongs to no role is refused before anything else (AWS rejects the signature), so
 * this never throws: each authorization the call would need is denied, or the call as a whole when
 * the gate cannot map it.
 */
function unknownCredentials(call: AwsCall, facts: AccountFacts): CallVerdict {
  let requests: IamRequest[];
  try {
    requests = iamRequestsFor(call, facts);
  } catch {
    requests = [callAsRequest(call)];
  }
  const why = `unknown credentials (access key ${call.accessKeyId} belongs to no role of the template)`;
  const decisions = requests.map((request) => ({
    request,
    allowed: false,
    reason: `${describeRequest(request)} is denied: ${why}`,
  }));
  return { allowed: false, decisions };
}
