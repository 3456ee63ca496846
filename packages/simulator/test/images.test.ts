import { describe, expect, it } from "vitest";
import { AUTH, fakeClock, get, post, sim } from "./helpers.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function chat(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: "deltaq2-image",
    messages: [{ role: "user", content: "a red fox" }],
    modalities: ["image", "text"],
    ...extra,
  };
}

async function expectPng(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/png");
  const buf = Buffer.from(await res.arrayBuffer());
  expect([...buf.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  expect(buf.length).toBe(Number(res.headers.get("content-length")));
  return buf;
}

function editForm(images: number, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (let i = 0; i < images; i++)
    form.append(
      "image[]",
      new Blob([Buffer.from([1, 2, 3, i])], { type: "image/png" }),
      `in-${i}.png`,
    );
  for (const [k, v] of Object.entries({
    model: "deltaq2-image",
    prompt: "make it blue",
    ...fields,
  }))
    form.append(k, v);
  return form;
}

describe("images", () => {
  it("chat/completions makes an image task whose poll gives output_image_count PNG URLs", async () => {
    const clock = fakeClock();
    const s = await sim({ now: clock.now });
    const res = await post(s, "/chat/completions", chat({ output_image_count: 2 }));
    expect(res.status).toBe(200);
    const created = (await res.json()) as { task_id: string };
    expect(created.task_id).toMatch(/^imgtsk_/);
    expect(await (await get(s, `/image/tasks/${created.task_id}`)).json()).toEqual({
      task_id: created.task_id,
      status: "running",
    });
    clock.advance(10_000);
    const done = (await (await get(s, `/image/tasks/${created.task_id}`)).json()) as {
      status: string;
      images: { url: string }[];
    };
    expect(done.status).toBe("succeeded");
    expect(done.images).toHaveLength(2);
    const [a, b] = [await expectPng(done.images[0]!.url), await expectPng(done.images[1]!.url)];
    expect(a.equals(b)).toBe(false);
    expect(s.task(created.task_id)?.outputSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("with syncImages chat/completions answers a chat.completion with image URLs at once", async () => {
    const s = await sim({ syncImages: true });
    const res = await post(s, "/chat/completions", chat());
    const body = (await res.json()) as any;
    expect(body).toMatchObject({
      object: "chat.completion",
      model: "deltaq2-image",
      choices: [{ index: 0, message: { role: "assistant", content: "" }, finish_reason: "stop" }],
    });
    expect(typeof body.id).toBe("string");
    expect(typeof body.created).toBe("number");
    const images = body.choices[0].message.images;
    expect(images).toHaveLength(1);
    expect(images[0].type).toBe("image_url");
    await expectPng(images[0].image_url.url);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ["modalities lacks image", chat({ modalities: ["text"] }), "invalid_modalities"],
    ["stream is true", chat({ stream: true }), "stream_unsupported"],
    ["model is a video model", chat({ model: "alpha-2.7" }), "model_not_found"],
    [
      "reference_images has 8 items",
      chat({
        image_config: { reference_images: Array(8).fill({ type: "url", url: "https://x/a.png" }) },
      }),
      "invalid_reference_images",
    ],
  ];
  for (const [what, body, code] of invalid) {
    it(`chat/completions answers 400 ${code} when ${what}`, async () => {
      const s = await sim();
      const res = await post(s, "/chat/completions", body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code } });
    });
  }

  it("image task poll answers 404 for an unknown id and for a video task id", async () => {
    const s = await sim();
    expect((await get(s, "/image/tasks/imgtsk_nope")).status).toBe(404);
  });

  it("images/edits takes multipart with image[] files and answers {created, data:[{url}]}", async () => {
    const s = await sim();
    const res = await fetch(`${s.url}/images/edits`, {
      method: "POST",
      headers: AUTH,
      body: editForm(3, { n: "2" }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { created: number; data: { url: string }[] };
    expect(typeof body.created).toBe("number");
    expect(body.data).toHaveLength(2);
    await expectPng(body.data[0]!.url);
    expect(s.counters().tasksCreated).toBe(1);
  });

  it("images/edits answers 400 for zero or eight images and for a missing prompt", async () => {
    const s = await sim();
    for (const form of [editForm(0), editForm(8), editForm(1, { prompt: "" })]) {
      const res = await fetch(`${s.url}/images/edits`, {
        method: "POST",
        headers: AUTH,
        body: form,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: { code: expect.any(String), message: expect.any(String) },
      });
    }
  });

  it("images/edits answers 400 for a body that is not multipart", async () => {
    const s = await sim();
    expect((await post(s, "/images/edits", { prompt: "x" })).status).toBe(400);
  });
});
