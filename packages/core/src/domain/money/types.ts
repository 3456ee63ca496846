/**
 * The money data a job record carries (its estimate and its budget reservation), with no imports,
 * so the job's types can hold them while money's functions read jobs.
 */

interface VideoUsage {
  unit: "video_second";
  /** Seconds of video (duration_sec; 0 = follow the source, counted as 0 until the upstream says). */
  quantity: number;
  /** The requested resolution; null = the model's default. */
  resolution: string | null;
  audio: boolean;
}

interface ImageUsage {
  unit: "image";
  /** Images made (output_image_count, default 1). */
  quantity: number;
  /** image_config.image_size; null = the model's default. */
  tier: string | null;
  referenceImages: number;
}

export type Usage = VideoUsage | ImageUsage;

export interface Estimate {
  usage: Usage;
  /** Millionths of `currency`; null when no table prices this model and usage. */
  costMicros: number | null;
  currency: string | null;
  /** The price table's sha256; null without a table. */
  priceVersion: string | null;
}

/** Where a job's reservation sits, and how much it holds (millionths of the budget's unit). */
export interface Reservation {
  ledger: string;
  micros: number;
  unit: "currency" | "units";
}
