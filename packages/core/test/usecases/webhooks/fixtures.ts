/** A job's terminal event as the webhook tests send it. */
import type { TerminalEvent } from "../../../src/domain/events/types.ts";

export const event: TerminalEvent = {
  id: "vidtsk_01JTESTEVENT0000000000000.succeeded",
  time: "2026-01-01T00:00:10.000Z",
  source: "reelay",
  "detail-type": "Generation Succeeded",
  detail: {
    jobId: "vidtsk_01JTESTEVENT0000000000000",
    kind: "video",
    model: "gamma-3.1",
    status: "succeeded",
    output: null,
    outputs: [],
    media: null,
    warnings: [],
    error: null,
    usage: { unit: "video_second", quantity: 5, resolution: null, audio: false },
    estimate: { cost: null, currency: null, price_version: null },
    cost: null,
    charged: true,
    timings: {
      createdAt: "2026-01-01T00:00:00.000Z",
      submittedAt: null,
      upstreamDoneAt: null,
      finishedAt: "2026-01-01T00:00:10.000Z",
      totalMs: 10_000,
    },
    upstreamTaskId: null,
    expiresAt: null,
    version: "0.1.0",
    createdByVersion: "0.1.0",
    metadata: {},
  },
};
