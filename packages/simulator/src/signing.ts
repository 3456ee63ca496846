import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Presigned-style download URLs: anyone holding the URL may fetch it until it expires. */
export class UrlSigner {
  private readonly secret: Buffer;

  /** A given secret makes the same links as another signer given it; default a random one. */
  constructor(secret?: string) {
    this.secret = secret === undefined ? randomBytes(32) : Buffer.from(`links\n${secret}`);
  }

  private sig(path: string, expires: number): string {
    return createHmac("sha256", this.secret).update(`${path}\n${expires}`).digest("hex");
  }

  sign(origin: string, path: string, expires: number): string {
    return `${origin}${path}?expires=${expires}&sig=${this.sig(path, expires)}`;
  }

  /** "ok", or why the URL is refused. */
  check(path: string, params: URLSearchParams, now: number): "ok" | "bad_signature" | "expired" {
    const expires = Number(params.get("expires"));
    const given = Buffer.from(params.get("sig") ?? "", "utf8");
    const want = Buffer.from(this.sig(path, expires), "utf8");
    if (!Number.isFinite(expires) || given.length !== want.length || !timingSafeEqual(given, want))
      return "bad_signature";
    return now > expires ? "expired" : "ok";
  }
}
