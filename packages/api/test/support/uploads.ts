/** What the upload tests share: a video to upload, and a create naming material by its URL. */
import { readFileSync } from "node:fs";

export const MP4 = readFileSync(new URL("../../../simulator/fixtures/video.mp4", import.meta.url));

/** A gamma video request with `url` as its first frame. */
export function firstFrame(url: string) {
  return {
    model: "gamma-3.1",
    prompt: "the boat sails off",
    duration_sec: 8,
    frame_images: [{ type: "image_url", frame_type: "first_frame", image_url: { url } }],
  };
}
