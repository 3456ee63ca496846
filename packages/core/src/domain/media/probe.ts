/**
 * Reads an output's structure from its bytes as they stream past, without decoding a frame and
 * without holding the file: for an MP4 only the top-level box headers are read and only `ftyp` and
 * `moov` are kept (mp4box parses them at the end); the sample data in `mdat` is counted and let go.
 * For an image the first bytes are kept for image-size. A file that does not parse as its type is
 * `output_invalid`.
 */
import { imageSize } from "image-size";
import { createFile, type Movie, MP4BoxBuffer, type Track } from "mp4box";
import { ReelayError } from "../errors.ts";
import type { Media } from "./types.ts";

/** A `moov` larger than this is refused rather than held (a 1-hour 60 fps video's is about 2 MiB). */
const MAX_KEPT_BYTES = 64 * 1024 * 1024;
/**
 * image-size reads the format's header; JPEG's size marker comes after its EXIF and embedded
 * thumbnails, which camera-style metadata can make a few MiB long.
 */
const IMAGE_HEAD_BYTES = 4 * 1024 * 1024;
/** What an ISO BMFF file may open with; anything else (an HTML error page, a WebM) is not an MP4. */
const FIRST_BOXES = new Set([
  "ftyp",
  "styp",
  "moov",
  "mdat",
  "free",
  "skip",
  "wide",
  "pdin",
  "uuid",
]);
/** Boxes kept whole for mp4box; every other top-level box is skipped by its size. */
const KEPT_BOXES = new Set(["ftyp", "moov"]);

const CODEC_NAMES: Record<string, string> = {
  avc1: "h264",
  avc3: "h264",
  hvc1: "hevc",
  hev1: "hevc",
  av01: "av1",
  vp09: "vp9",
  vp08: "vp8",
  mp4v: "mpeg4",
};

function invalid(message: string): ReelayError {
  // Permanent for the step: the whole announced length arrived, so another download gets the same bytes.
  return new ReelayError("output_invalid", message, { retryable: false });
}

export interface MediaProbe {
  push(chunk: Uint8Array): void;
  /** The media once every byte went through `push`; throws output_invalid when it does not parse. */
  finish(): Media;
}

interface OpenBox {
  type: string;
  /** Bytes of the box still to come (Infinity: a size-0 box runs to the end of the file). */
  left: number;
  kept?: Uint8Array[];
  start: number;
}

/** A box type is four printable ASCII characters; anything else means the bytes are not ISO BMFF. */
function boxType(header: Buffer): string | undefined {
  const type = header.toString("latin1", 4, 8);
  return /^[\x20-\x7e]{4}$/.test(type) ? type : undefined;
}

class Mp4Probe implements MediaProbe {
  #bytes = 0;
  #header = Buffer.alloc(0);
  #box: OpenBox | undefined;
  #kept: Uint8Array[] = [];
  #keptBytes = 0;
  #seen: string[] = [];

  push(chunk: Uint8Array): void {
    let rest = chunk;
    while (rest.length > 0) {
      if (this.#box === undefined) rest = this.#readHeader(rest);
      else rest = this.#readBody(this.#box, rest);
    }
  }

  #readHeader(chunk: Uint8Array): Uint8Array {
    const need = this.#header.length < 8 ? 8 : 16;
    const take = Math.min(need - this.#header.length, chunk.length);
    this.#header = Buffer.concat([this.#header, chunk.subarray(0, take)]);
    this.#bytes += take;
    if (this.#header.length < 8) return chunk.subarray(take);
    const size32 = this.#header.readUInt32BE(0);
    if (size32 === 1 && this.#header.length < 16) return chunk.subarray(take);
    const type = boxType(this.#header);
    const start = this.#bytes - this.#header.length;
    if (type === undefined || (start === 0 && !FIRST_BOXES.has(type)))
      throw invalid(`The video has no MP4 box at byte ${start}.`);
    const size = size32 === 1 ? Number(this.#header.readBigUInt64BE(8)) : size32;
    const headerBytes = size32 === 1 ? 16 : 8;
    if (size !== 0 && size < headerBytes)
      throw invalid(`The video's "${type}" box at byte ${start} has an impossible size (${size}).`);
    const box: OpenBox = { type, start, left: size === 0 ? Infinity : size - headerBytes };
    if (KEPT_BOXES.has(type)) {
      if (size === 0 || size > MAX_KEPT_BYTES)
        throw invalid(`The video's "${type}" box is larger than reelay reads (${size} bytes).`);
      box.kept = [Buffer.from(this.#header)];
    }
    this.#seen.push(type);
    this.#header = Buffer.alloc(0);
    this.#box = box;
    if (box.left === 0) this.#close(box);
    return chunk.subarray(take);
  }

  #readBody(box: OpenBox, chunk: Uint8Array): Uint8Array {
    const take = Math.min(box.left, chunk.length);
    // A copy: a view would hold the whole chunk it came from.
    box.kept?.push(Buffer.from(chunk.subarray(0, take)));
    box.left -= take;
    this.#bytes += take;
    if (box.left === 0) this.#close(box);
    return chunk.subarray(take);
  }

  #close(box: OpenBox): void {
    for (const part of box.kept ?? []) {
      this.#kept.push(part);
      this.#keptBytes += part.length;
    }
    this.#box = undefined;
  }

  finish(): Media {
    const open = this.#box;
    if (open !== undefined && open.left !== Infinity)
      throw invalid(
        `The video is cut short: its "${open.type}" box at byte ${open.start} is missing ${open.left} bytes.`,
      );
    if (this.#header.length > 0)
      throw invalid(`The video ends inside a box header at byte ${this.#bytes}.`);
    if (!this.#seen.includes("moov"))
      throw invalid(
        `The video has no "moov" box (boxes: ${this.#seen.slice(0, 8).join(", ") || "none"}).`,
      );
    return mediaOf(parseMovie(Buffer.concat(this.#kept, this.#keptBytes)), this.#bytes);
  }
}

/** The kept `ftyp` + `moov`, laid end to end from byte 0: mp4box reads the boxes, never the samples. */
function parseMovie(boxes: Buffer): Movie {
  const file = createFile();
  let movie: Movie | undefined;
  let failure: string | undefined;
  file.onReady = (info) => {
    movie = info;
  };
  file.onError = (_module, message) => {
    failure = message;
  };
  const copy = boxes.buffer.slice(boxes.byteOffset, boxes.byteOffset + boxes.length);
  try {
    file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(copy, 0), true);
    file.flush();
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  if (movie === undefined)
    throw invalid(`The video's "moov" box does not parse${failure ? `: ${failure}` : ""}.`);
  return movie;
}

function seconds(units: number, timescale: number): number {
  return timescale > 0 ? units / timescale : 0;
}

function movieDuration(movie: Movie, track: Track): number {
  const fragmented = movie.fragment_duration;
  if (movie.isFragmented && fragmented !== undefined && fragmented.den > 0)
    return fragmented.num / fragmented.den;
  if (movie.duration > 0) return seconds(movie.duration, movie.timescale);
  return seconds(track.duration, track.timescale);
}

function mediaOf(movie: Movie, bytes: number): Media {
  const track = movie.videoTracks[0];
  if (track === undefined || track.video === undefined)
    throw invalid("The video has no video track.");
  const durationS = movieDuration(movie, track);
  const samplesS = seconds(track.samples_duration || track.duration, track.timescale);
  const fourcc = track.codec.split(".")[0] ?? track.codec;
  if (track.nb_samples === 0 || durationS <= 0) throw invalid("The video has no frames.");
  return {
    duration_s: Math.round(durationS * 1000) / 1000,
    width: track.video.width || track.track_width,
    height: track.video.height || track.track_height,
    codec: CODEC_NAMES[fourcc] ?? fourcc,
    fps: samplesS > 0 ? Math.round((track.nb_samples / samplesS) * 1000) / 1000 : null,
    bytes,
  };
}

class ImageProbe implements MediaProbe {
  #head: Uint8Array[] = [];
  #headBytes = 0;
  #bytes = 0;

  push(chunk: Uint8Array): void {
    this.#bytes += chunk.length;
    if (this.#headBytes >= IMAGE_HEAD_BYTES) return;
    const part = Buffer.from(chunk.subarray(0, IMAGE_HEAD_BYTES - this.#headBytes));
    this.#head.push(part);
    this.#headBytes += part.length;
  }

  finish(): Media {
    let size: ReturnType<typeof imageSize>;
    try {
      size = imageSize(Buffer.concat(this.#head, this.#headBytes));
    } catch (error) {
      throw invalid(
        `The image does not parse: ${error instanceof Error ? error.message : String(error)}.`,
      );
    }
    return {
      duration_s: null,
      width: size.width,
      height: size.height,
      codec: size.type ?? "unknown",
      fps: null,
      bytes: this.#bytes,
    };
  }
}

/** The probe for an output of this kind of job: a video is read as MP4 (ISO BMFF), an image by its header. */
export function mediaProbe(kind: "video" | "image"): MediaProbe {
  return kind === "video" ? new Mp4Probe() : new ImageProbe();
}
