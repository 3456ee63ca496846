/**
 * The few fields of the S3 notification event the drop handler reads (no @types/aws-lambda
 * dependency for a few lines; the API's events are hono's own Lambda adapter's).
 */
export interface S3NotificationEvent {
  Records: {
    s3: { bucket: { name: string }; object: { key: string; eTag?: string; size?: number } };
  }[];
}
