/**
 * The few fields of Lambda's event shapes the handlers read (no @types/aws-lambda dependency for
 * a dozen lines).
 */
export interface HttpApiEvent {
  rawPath: string;
  requestContext: { http: { method: string } };
  headers?: Record<string, string | undefined>;
  body?: string;
  isBase64Encoded?: boolean;
}

export interface HttpApiResult {
  statusCode: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface S3NotificationEvent {
  Records: {
    s3: { bucket: { name: string }; object: { key: string; eTag?: string; size?: number } };
  }[];
}
