/**
 * The job flow's names and limits, free of aws-cdk-lib so Lambda handlers and the local stack can
 * import them without bundling the CDK.
 */
export const JOB_FLOW_STEPS = ["submit", "poll", "download", "finish", "recordFailure"] as const;
export type JobFlowStep = (typeof JOB_FLOW_STEPS)[number];

/** Task state name of each step: also the keys of the local runner's handlers. */
export const JOB_FLOW_STATE_NAMES: Record<JobFlowStep, string> = {
  submit: "Submit",
  poll: "Poll",
  download: "Download",
  finish: "Finish",
  recordFailure: "RecordFailure",
};

/** Steps that talk to the upstream service: only their functions get the upstream API key. */
export const UPSTREAM_STEPS: readonly JobFlowStep[] = ["submit", "poll", "download"];

/** Lambda's own service and throttling errors: the function never ran or could not answer. */
/** What Step Functions sees when a Lambda function runs past its timeout (its init's included). */
export const LAMBDA_TIMEOUT_ERROR = "Sandbox.Timedout";

export const LAMBDA_SERVICE_ERRORS = [
  "Lambda.ServiceException",
  "Lambda.AWSLambdaException",
  "Lambda.SdkClientException",
  "Lambda.TooManyRequestsException",
];

/**
 * Lambda timeout per step, in seconds. The Task's TimeoutSeconds is this plus a margin, so a slow
 * function times out inside Lambda (a clean error in its logs) before Step Functions gives up.
 * Download copies a whole video and then makes its previews (one ffmpeg run of at most 60 s,
 * adapters/media/ffmpeg-frames.ts, started only while 75 s are left), so it gets Lambda's maximum.
 */
export const STEP_LAMBDA_TIMEOUT_S: Record<JobFlowStep, number> = {
  // Room for the upstream client's own attempts, including a Retry-After of up to a minute.
  submit: 180,
  poll: 180,
  download: 900,
  finish: 60,
  recordFailure: 60,
};

/**
 * Lambda memory per step, in MB (the stack sets it; the orchestration benchmark prices with it).
 * Poll only waits on HTTP and DynamoDB, and with the Poll window it holds most of a job's Lambda
 * time, so it gets Lambda's smallest size; the others keep the stack default but Download.
 */
export const STEP_MEMORY_MB: Record<JobFlowStep, number> = {
  submit: 512,
  poll: 128,
  // Download runs ffmpeg on each video after its copy: Lambda's CPU grows with memory, and 1769 MB
  // is one vCPU, so the previews take what they took in the Thumbnail function of their own, and a
  // 4k decode beside the copier has room. ffmpeg's CPU costs the same GB-s at any size up to one
  // vCPU; what the size adds is the copy's waiting on the network (docs/performance.md).
  download: 1769,
  finish: 512,
  recordFailure: 512,
};

/** Lambda's architecture names, as a function's `Architectures` lists them. */
export type LambdaArchitecture = "arm64" | "x86_64";

/**
 * Architecture per step (the stack sets it; the orchestration benchmark prices with it: x86_64's
 * GB-s costs a quarter more than arm64's). Every function is arm64 except Download, which runs
 * ffmpeg: its layer is the x86-64 binary of the npm package @ffmpeg-installer/linux-x64, the one
 * every test runs on this x86-64 machine (the linux-arm64 package's binary could run on no machine
 * here, so a broken one would show only as every video's thumbnail_failed warning on AWS).
 */
export const STEP_ARCHITECTURE: Record<JobFlowStep, LambdaArchitecture> = {
  submit: "arm64",
  poll: "arm64",
  download: "x86_64",
  finish: "arm64",
  recordFailure: "arm64",
};
