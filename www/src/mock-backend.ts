// A stand-in for the wasm module, for developing the viewer and testing it: it answers every request of the protocol
// with small synthetic data that holds together (a few triangles rasterized at pixel centres, a depth test, alpha
// blending, a pixel program that can discard), so that the images, the texel values, the fragment histories and the
// traces agree with each other. Used only when the page's URL has `?mock`, and by the unit tests.
//
// It accepts as a "capture" a file that starts with the text "IRIDIA-MOCK" or a ZIP archive (whose contents it
// ignores); it rejects anything else, and a ZIP without its end-of-central-directory record, the way the real
// reader will. None of its numbers are D3D11 results.

import type { Backend, Handlers } from "./backend";
import {
  BackendError,
  type BlendResult,
  type CaptureSummary,
  type ChannelDifference,
  type ChannelStats,
  type ChannelValue,
  type CompareResult,
  type ComponentKind,
  type DepthResult,
  type Disassembly,
  type DisplayOptions,
  type DrawInfo,
  type DrawStatus,
  type ErrorInfo,
  type FragmentOutcome,
  type FragmentRecord,
  type ImageKind,
  type Limits,
  type VariantInfo,
  type PixelBounds,
  type PixelCoord,
  type PixelHistory,
  type PixelVerdictKind,
  type ProgramInfo,
  type ProgramTrace,
  type RegisterValue,
  type RenderedImage,
  type StencilResult,
  type TargetComparison,
  type TargetId,
  type TargetInfo,
  type TexelReadout,
  type TexelValue,
  type TraceStep,
  type VertexRecord,
} from "./protocol";

// ---------------------------------------------------------------------------------------------------------------
// Formats: enough of a few DXGI formats to quantize values and show their bits.

type Encoding = "unorm" | "float" | "uint";

interface ChannelFormat {
  name: string;
  bits: number;
  encoding: Encoding;
}

interface FormatInfo {
  kind: ComponentKind;
  channels: ChannelFormat[];
}

function rgba(bits: number, encoding: Encoding, names = ["r", "g", "b", "a"]): ChannelFormat[] {
  return names.map((name) => ({ name, bits, encoding }));
}

const FORMATS: Record<string, FormatInfo> = {
  R8G8B8A8_UNORM: { kind: "unorm", channels: rgba(8, "unorm") },
  R8G8B8A8_UNORM_SRGB: { kind: "unorm", channels: rgba(8, "unorm") },
  R10G10B10A2_UNORM: {
    kind: "unorm",
    channels: [...rgba(10, "unorm", ["r", "g", "b"]), { name: "a", bits: 2, encoding: "unorm" }],
  },
  R16G16B16A16_FLOAT: { kind: "float", channels: rgba(16, "float") },
  R11G11B10_FLOAT: {
    kind: "float",
    channels: [
      { name: "r", bits: 11, encoding: "float" },
      { name: "g", bits: 11, encoding: "float" },
      { name: "b", bits: 10, encoding: "float" },
    ],
  },
  R32_FLOAT: { kind: "float", channels: rgba(32, "float", ["r"]) },
  D32_FLOAT: { kind: "depth", channels: [{ name: "depth", bits: 32, encoding: "float" }] },
  "D24_UNORM_S8_UINT depth": { kind: "depth", channels: [{ name: "depth", bits: 24, encoding: "unorm" }] },
  "D24_UNORM_S8_UINT stencil": { kind: "stencil", channels: [{ name: "stencil", bits: 8, encoding: "uint" }] },
};

const scratch = new DataView(new ArrayBuffer(4));

function f32Bits(value: number): number {
  scratch.setFloat32(0, value, true);
  return scratch.getUint32(0, true);
}

function bitsF32(bits: number): number {
  scratch.setUint32(0, bits >>> 0, true);
  return scratch.getFloat32(0, true);
}

/**
 * Encodes a value as a small float with `mantissaBits` and a 5-bit exponent (float16 with a sign bit; float11 and
 * float10 without), rounding to nearest even, and returns its bits.
 */
function smallFloatBits(value: number, mantissaBits: number, signed: boolean): number {
  const expBits = 5;
  const bias = 15;
  const maxExp = (1 << expBits) - 1;
  const signBit = signed ? 1 << (expBits + mantissaBits) : 0;
  if (Number.isNaN(value)) return (maxExp << mantissaBits) | 1;
  let sign = 0;
  if (value < 0 || Object.is(value, -0)) {
    if (!signed) return 0;
    sign = signBit;
    value = -value;
  }
  if (value === Infinity) return sign | (maxExp << mantissaBits);
  if (value === 0) return sign;
  let exponent = Math.floor(Math.log2(value));
  if (exponent < 1 - bias) exponent = 1 - bias;
  let mantissa = Math.round((value / 2 ** exponent) * 2 ** mantissaBits);
  if (exponent === 1 - bias && mantissa < 2 ** mantissaBits) return sign | mantissa;
  if (mantissa >= 2 ** (mantissaBits + 1)) {
    mantissa /= 2;
    exponent += 1;
  }
  const biased = exponent + bias;
  if (biased >= maxExp) return sign | (maxExp << mantissaBits);
  return sign | (biased << mantissaBits) | (mantissa - 2 ** mantissaBits);
}

function smallFloatValue(bits: number, mantissaBits: number, signed: boolean): number {
  const exponent = (bits >> mantissaBits) & 31;
  const mantissa = bits & ((1 << mantissaBits) - 1);
  const sign = signed && (bits >> (mantissaBits + 5)) & 1 ? -1 : 1;
  if (exponent === 31) return mantissa === 0 ? sign * Infinity : NaN;
  if (exponent === 0) return sign * mantissa * 2 ** (-14 - mantissaBits);
  return sign * (1 + mantissa / 2 ** mantissaBits) * 2 ** (exponent - 15);
}

/** The bits a channel stores for `value`. */
function encode(channel: ChannelFormat, value: number): number {
  switch (channel.encoding) {
    case "unorm": {
      const max = 2 ** channel.bits - 1;
      if (Number.isNaN(value)) return 0;
      return Math.round(Math.min(1, Math.max(0, value)) * max);
    }
    case "uint":
      return Math.min(2 ** channel.bits - 1, Math.max(0, Math.round(value)));
    case "float":
      if (channel.bits === 32) return f32Bits(value);
      if (channel.bits === 16) return smallFloatBits(value, 10, true);
      return smallFloatBits(value, channel.bits - 5, false);
  }
}

/** The value stored bits read as. */
function decode(channel: ChannelFormat, bits: number): number {
  switch (channel.encoding) {
    case "unorm":
      return bits / (2 ** channel.bits - 1);
    case "uint":
      return bits;
    case "float":
      if (channel.bits === 32) return bitsF32(bits);
      if (channel.bits === 16) return smallFloatValue(bits, 10, true);
      return smallFloatValue(bits, channel.bits - 5, false);
  }
}

function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  if (Number.isInteger(value)) return String(value);
  return Number(value.toPrecision(6)).toString();
}

function channelText(channel: ChannelFormat, value: number, bits: number): string {
  switch (channel.encoding) {
    case "unorm":
      return `${value.toFixed(5)} (${bits})`;
    case "uint":
      return String(bits);
    case "float":
      return `${formatNumber(value)} (0x${bits.toString(16).padStart(Math.ceil(channel.bits / 4), "0")})`;
  }
}

/** The texel's bytes as hex: whole-byte channels one after the other, others packed into a 32-bit word. */
function texelHex(format: FormatInfo, bits: number[]): string {
  const bytes: number[] = [];
  if (format.channels.every((channel) => channel.bits % 8 === 0)) {
    format.channels.forEach((channel, i) => {
      const value = bits[i] ?? 0;
      for (let byte = 0; byte < channel.bits / 8; byte++) bytes.push(Math.floor(value / 2 ** (8 * byte)) & 255);
    });
  } else {
    let word = 0;
    let shift = 0;
    format.channels.forEach((channel, i) => {
      word += (bits[i] ?? 0) * 2 ** shift;
      shift += channel.bits;
    });
    for (let byte = 0; byte < 4; byte++) bytes.push(Math.floor(word / 2 ** (8 * byte)) & 255);
  }
  return bytes.map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

// ---------------------------------------------------------------------------------------------------------------
// Synthetic draws

/** A vertex of a synthetic triangle: window position (pixels, depth), texture coordinate, colour. */
interface MockVertex {
  position: [number, number, number];
  uv: [number, number];
  color: [number, number, number, number];
}

interface MockTriangle {
  vertices: [MockVertex, MockVertex, MockVertex];
  /** The vertex ids (positions in the vertex stream) of the three corners. */
  ids: [number, number, number];
}

/** How a draw's pixel program turns interpolated inputs into each target slot's output. */
type Shader = (uv: [number, number], color: [number, number, number, number]) => number[][];

/** Which pixels the mock's replay gets wrong ("differs") or differently-but-allowed ("ambiguous"). */
type Disagreement = (target: TargetId, x: number, y: number) => "differs" | "ambiguous" | null;

interface DrawSpec {
  name: string;
  api_call: string;
  width: number;
  height: number;
  /** Render-target slots and their formats. */
  colors: string[];
  /** The depth-stencil format, or null. */
  depthStencil: "D32_FLOAT" | "D24_UNORM_S8_UINT" | null;
  hasPixelShader: boolean;
  triangles: MockTriangle[];
  shade: Shader;
  blend: boolean;
  before: (slot: number, x: number, y: number) => number[];
  /** The depth buffer before the draw. */
  depthBefore: (x: number, y: number) => number;
  disagree: Disagreement;
  /** Replaying fails with this error. */
  replayError: ErrorInfo | null;
  /** Pixels whose recorded value is NaN or +Inf (float targets), to show how they are highlighted. */
  nonFinite: (x: number, y: number) => number | null;
}

function vertex(x: number, y: number, z: number, u: number, v: number, color: number[]): MockVertex {
  return {
    position: [x, y, z],
    uv: [u, v],
    color: [color[0] ?? 0, color[1] ?? 0, color[2] ?? 0, color[3] ?? 1],
  };
}

function triangle(a: MockVertex, b: MockVertex, c: MockVertex, first: number): MockTriangle {
  return { vertices: [a, b, c], ids: [first, first + 1, first + 2] };
}

function sky(y: number, height: number): number[] {
  const t = y / height;
  return [0.15 + 0.25 * t, 0.3 + 0.35 * t, 0.65 + 0.25 * t, 1];
}

const passThrough: Shader = (_uv, color) => [[...color]];

function mockDraws(): DrawSpec[] {
  const noDisagreement: Disagreement = () => null;
  const noNonFinite = (): number | null => null;
  return [
    {
      name: "Sky",
      api_call: "Draw(6, 0)",
      width: 64,
      height: 40,
      colors: ["R8G8B8A8_UNORM_SRGB"],
      depthStencil: null,
      hasPixelShader: true,
      triangles: [
        triangle(
          vertex(0, 0, 0.99, 0.2, 0, [0.15, 0.3, 0.65, 1]),
          vertex(64, 0, 0.99, 1, 0, [0.15, 0.3, 0.65, 1]),
          vertex(0, 40, 0.99, 0.2, 1, [0.4, 0.65, 0.9, 1]),
          0,
        ),
        triangle(
          vertex(64, 0, 0.99, 1, 0, [0.15, 0.3, 0.65, 1]),
          vertex(64, 40, 0.99, 1, 1, [0.4, 0.65, 0.9, 1]),
          vertex(0, 40, 0.99, 0.2, 1, [0.4, 0.65, 0.9, 1]),
          3,
        ),
      ],
      shade: passThrough,
      blend: false,
      before: () => [0, 0, 0, 1],
      depthBefore: () => 1,
      disagree: noDisagreement,
      replayError: null,
      nonFinite: noNonFinite,
    },
    {
      name: "Terrain",
      api_call: "DrawIndexed(6, 0, 0)",
      width: 64,
      height: 40,
      colors: ["R8G8B8A8_UNORM"],
      depthStencil: "D32_FLOAT",
      hasPixelShader: true,
      triangles: [
        triangle(
          vertex(4, 36, 0.5, 0, 0, [0.2, 0.55, 0.2, 1]),
          vertex(36, 4, 0.4, 1, 0, [0.35, 0.7, 0.25, 1]),
          vertex(60, 36, 0.5, 1, 1, [0.25, 0.45, 0.15, 1]),
          0,
        ),
        triangle(
          vertex(24, 38, 0.3, 0.5, 0.5, [0.75, 0.3, 0.2, 1]),
          vertex(30, 14, 0.6, 0.5, 0.9, [0.8, 0.45, 0.25, 1]),
          vertex(56, 30, 0.6, 0.9, 0.9, [0.65, 0.25, 0.15, 1]),
          3,
        ),
      ],
      shade: passThrough,
      blend: false,
      before: (slot, _x, y) => (slot === 0 ? sky(y, 40) : [1]),
      depthBefore: () => 1,
      disagree: (target, x, y) => {
        if (target !== "rt0") return null;
        if ((x * 7 + y * 13) % 29 === 0) return "differs";
        if (x + y === 50) return "ambiguous";
        return null;
      },
      replayError: null,
      nonFinite: noNonFinite,
    },
    {
      name: "HDR lighting",
      api_call: "Draw(3, 0)",
      width: 48,
      height: 32,
      colors: ["R16G16B16A16_FLOAT", "R11G11B10_FLOAT"],
      depthStencil: null,
      hasPixelShader: true,
      triangles: [
        triangle(
          vertex(-8, 40, 0.5, 0.1, 0.2, [0.1, 0.2, 0.4, 1]),
          vertex(24, -16, 0.5, 0.9, 0.2, [6, 4.5, 2, 1]),
          vertex(56, 40, 0.5, 0.5, 0.9, [0.5, 1.5, 3, 1]),
          0,
        ),
      ],
      shade: (uv, color) => [
        [...color],
        [color[0] * 0.5 + uv[0], color[1] * 0.5, color[2] * 0.5 + uv[1], 1],
      ],
      blend: false,
      before: () => [0, 0, 0, 0],
      depthBefore: () => 1,
      disagree: (_target, x, y) => (y === 12 && x >= 10 && x < 30 ? "differs" : null),
      replayError: null,
      nonFinite: (x, y) => {
        if (x >= 30 && x < 32 && y >= 20 && y < 22) return NaN;
        if (x === 20 && y === 24) return Infinity;
        return null;
      },
    },
    {
      name: "Shadow map",
      api_call: "DrawIndexed(3, 0, 0)",
      width: 32,
      height: 32,
      colors: [],
      depthStencil: "D24_UNORM_S8_UINT",
      hasPixelShader: false,
      triangles: [
        triangle(
          vertex(2, 30, 0.2, 0, 0, [0, 0, 0, 1]),
          vertex(16, 2, 0.8, 0, 0, [0, 0, 0, 1]),
          vertex(30, 26, 0.5, 0, 0, [0, 0, 0, 1]),
          0,
        ),
      ],
      shade: () => [],
      blend: false,
      before: () => [1],
      depthBefore: () => 1,
      disagree: noDisagreement,
      replayError: null,
      nonFinite: noNonFinite,
    },
    {
      name: "Particles",
      api_call: "DrawInstanced(4, 64, 0, 0)",
      width: 64,
      height: 40,
      colors: ["R8G8B8A8_UNORM"],
      depthStencil: null,
      hasPixelShader: true,
      triangles: [],
      shade: passThrough,
      blend: true,
      before: (_slot, _x, y) => sky(y, 40),
      depthBefore: () => 1,
      disagree: noDisagreement,
      replayError: {
        kind: "unsupported",
        what: "unsupported",
        at: "draws[4].gs",
        detail: "a geometry shader is bound; Iridia replays vertex and pixel programs only",
      },
      nonFinite: noNonFinite,
    },
    {
      name: "UI overlay",
      api_call: "DrawIndexed(6, 0, 0)",
      width: 64,
      height: 40,
      colors: ["R8G8B8A8_UNORM", "R10G10B10A2_UNORM", "R32_FLOAT"],
      depthStencil: null,
      hasPixelShader: true,
      triangles: [
        triangle(
          vertex(8, 6, 0.1, 0, 0.02, [0.9, 0.9, 0.95, 0.6]),
          vertex(40, 6, 0.1, 1, 0.02, [0.9, 0.9, 0.95, 0.6]),
          vertex(8, 18, 0.1, 0, 1, [0.6, 0.6, 0.7, 0.6]),
          0,
        ),
        triangle(
          vertex(40, 6, 0.1, 1, 0.02, [0.9, 0.9, 0.95, 0.6]),
          vertex(40, 18, 0.1, 1, 1, [0.6, 0.6, 0.7, 0.6]),
          vertex(8, 18, 0.1, 0, 1, [0.6, 0.6, 0.7, 0.6]),
          3,
        ),
      ],
      shade: (uv, color) => [[...color], [uv[0], uv[1], 0.5, 1], [uv[0] * 100 - 50]],
      blend: true,
      before: (slot, x, y) => (slot === 0 ? sky(y, 40) : slot === 1 ? [0, 0, 0, 0] : [(x - y) / 8]),
      depthBefore: () => 1,
      disagree: noDisagreement,
      replayError: null,
      nonFinite: noNonFinite,
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// The mock pipeline

const PS_TINT = [1, 1, 1, 1];
const PS_DISCARD_BELOW = 0.0025;

/** Inputs interpolated at a pixel centre and whether the pixel program discards. */
interface Shaded {
  barycentrics: [number, number, number];
  uv: [number, number];
  color: [number, number, number, number];
  depth: number;
  discarded: boolean;
}

/** Barycentric weights of the pixel centre (x + 0.5, y + 0.5) in a triangle, or null outside it (no top-left rule). */
function coverage(tri: MockTriangle, x: number, y: number): [number, number, number] | null {
  const [a, b, c] = tri.vertices;
  const px = x + 0.5;
  const py = y + 0.5;
  const area = (b.position[0] - a.position[0]) * (c.position[1] - a.position[1]) -
    (c.position[0] - a.position[0]) * (b.position[1] - a.position[1]);
  if (area === 0) return null;
  const w0 = ((b.position[0] - px) * (c.position[1] - py) - (c.position[0] - px) * (b.position[1] - py)) / area;
  const w1 = ((c.position[0] - px) * (a.position[1] - py) - (a.position[0] - px) * (c.position[1] - py)) / area;
  const w2 = 1 - w0 - w1;
  if (w0 < 0 || w1 < 0 || w2 < 0) return null;
  return [w0, w1, w2];
}

function interpolate(tri: MockTriangle, weights: [number, number, number]): Shaded {
  const [a, b, c] = tri.vertices;
  const mix = (pick: (v: MockVertex) => number): number =>
    Math.fround(weights[0] * pick(a) + weights[1] * pick(b) + weights[2] * pick(c));
  const uv: [number, number] = [mix((v) => v.uv[0]), mix((v) => v.uv[1])];
  const color: [number, number, number, number] = [
    mix((v) => v.color[0]),
    mix((v) => v.color[1]),
    mix((v) => v.color[2]),
    mix((v) => v.color[3]),
  ];
  const discarded = uv[0] * uv[0] + uv[1] * uv[1] < PS_DISCARD_BELOW;
  return { barycentrics: weights, uv, color, depth: mix((v) => v.position[2]), discarded };
}

/** One fragment's effect, before the records are dressed for the protocol. */
interface MockFragment {
  primitive: number;
  shaded: Shaded;
  outputs: number[][];
  storedDepth: number | null;
  depthPassed: boolean;
  destination: number[][];
  results: number[][];
  outcome: FragmentOutcome;
}

/** A target's images: decoded values, `channels` per texel, row-major. */
interface Images {
  before: Float32Array;
  recorded: Float32Array;
  replayed: Float32Array;
  /** Per pixel: 0 untouched, 1 covered and matching, 2 differs, 3 ambiguous. */
  verdicts: Uint8Array;
}

/** The box of the pixels a mock draw covers (verdict not 0), or null. */
function coveredBounds(verdicts: Uint8Array, width: number): PixelBounds | null {
  let box: PixelBounds | null = null;
  verdicts.forEach((verdict, at) => {
    if (verdict === 0) return;
    const x = at % width;
    const y = Math.floor(at / width);
    box = box === null ? { x0: x, y0: y, x1: x + 1, y1: y + 1 } : { x0: Math.min(box.x0, x), y0: Math.min(box.y0, y), x1: Math.max(box.x1, x + 1), y1: Math.max(box.y1, y + 1) };
  });
  return box;
}

/** A draw of a mock capture with its images, computed on first use. */
class MockDraw {
  readonly targets: TargetInfo[];
  replayed = false;
  private images: Map<TargetId, Images> | null = null;

  constructor(
    readonly index: number,
    readonly spec: DrawSpec,
  ) {
    this.targets = spec.colors.map((format, slot) => targetInfo(`rt${slot}` as TargetId, format, spec));
    if (spec.depthStencil === "D32_FLOAT") this.targets.push(targetInfo("depth", "D32_FLOAT", spec));
    if (spec.depthStencil === "D24_UNORM_S8_UINT") {
      this.targets.push(targetInfo("depth", "D24_UNORM_S8_UINT depth", spec));
      this.targets.push(targetInfo("stencil", "D24_UNORM_S8_UINT stencil", spec));
    }
  }

  target(id: TargetId): TargetInfo {
    const info = this.targets.find((target) => target.target === id);
    if (info === undefined)
      throw new BackendError({ kind: "request", what: "request", at: `draw ${this.index}`, detail: `the draw has no target ${id}` });
    return info;
  }

  /** Every fragment of the pixel in order, and the value each target slot holds after them. */
  fragments(x: number, y: number): { fragments: MockFragment[]; colors: number[][]; depth: number; stencil: number } {
    const spec = this.spec;
    const colors = spec.colors.map((_format, slot) => quantizeAll(spec.colors[slot] ?? "", spec.before(slot, x, y)));
    let depth = spec.depthBefore(x, y);
    let stencil = 0;
    const fragments: MockFragment[] = [];
    spec.triangles.forEach((tri, primitive) => {
      const weights = coverage(tri, x, y);
      if (weights === null) return;
      const shaded = interpolate(tri, weights);
      const discarded = spec.hasPixelShader && shaded.discarded;
      const poison = spec.nonFinite(x, y);
      const shadedOutputs = discarded ? [] : spec.shade(shaded.uv, shaded.color);
      // where the draw makes NaN or Inf, its pixel program writes them to every colour channel
      const outputs = poison === null ? shadedOutputs : shadedOutputs.map((output) => output.map((value, c) => (c < 3 ? poison : value)));
      const storedDepth = spec.depthStencil === null ? null : depth;
      const depthPassed = storedDepth === null || shaded.depth < storedDepth;
      const destination = colors.map((value) => [...value]);
      let outcome: FragmentOutcome = "written";
      let results: number[][] = [];
      if (discarded) outcome = "discarded";
      else if (!depthPassed) outcome = "depth_failed";
      else {
        results = outputs.map((source, slot) => blend(spec.blend && slot === 0, source, destination[slot] ?? []));
        results.forEach((value, slot) => {
          colors[slot] = quantizeAll(spec.colors[slot] ?? "", value);
        });
        if (spec.depthStencil !== null) {
          depth = quantizeAll(spec.depthStencil === "D32_FLOAT" ? "D32_FLOAT" : "D24_UNORM_S8_UINT depth", [
            shaded.depth,
          ])[0] ?? depth;
          stencil = 1;
        }
      }
      fragments.push({ primitive, shaded, outputs, storedDepth, depthPassed, destination, results, outcome });
    });
    return { fragments, colors, depth, stencil };
  }

  /** The images of every target, computed on first use. */
  allImages(): Map<TargetId, Images> {
    if (this.images !== null) return this.images;
    const spec = this.spec;
    const images = new Map<TargetId, Images>();
    for (const info of this.targets) {
      const size = info.width * info.height * info.channels;
      images.set(info.target, {
        before: new Float32Array(size),
        recorded: new Float32Array(size),
        replayed: new Float32Array(size),
        verdicts: new Uint8Array(info.width * info.height),
      });
    }
    for (let y = 0; y < spec.height; y++) {
      for (let x = 0; x < spec.width; x++) {
        const { fragments, colors, depth, stencil } = this.fragments(x, y);
        for (const info of this.targets) {
          const image = images.get(info.target);
          if (image === undefined) continue;
          const pixel = y * info.width + x;
          const slot = info.target.startsWith("rt") ? Number(info.target.slice(2)) : -1;
          let before: number[];
          let after: number[];
          if (slot >= 0) {
            before = quantizeAll(spec.colors[slot] ?? "", spec.before(slot, x, y));
            after = colors[slot] ?? before;
          } else if (info.target === "depth") {
            before = [spec.depthBefore(x, y)];
            after = [depth];
          } else {
            before = [0];
            after = [stencil];
          }
          const format = formatOf(info);
          for (let c = 0; c < info.channels; c++) {
            image.before[pixel * info.channels + c] = before[c] ?? 0;
            image.recorded[pixel * info.channels + c] = after[c] ?? 0;
            image.replayed[pixel * info.channels + c] = after[c] ?? 0;
          }
          const covered = fragments.some((fragment) => fragment.outcome === "written");
          const disagreement = covered ? spec.disagree(info.target, x, y) : null;
          image.verdicts[pixel] = !covered ? 0 : disagreement === "differs" ? 2 : disagreement === "ambiguous" ? 3 : 1;
          if (disagreement !== null) {
            // the mock's replay is off by one or two steps of the format in the first channel
            const channel = format.channels[0];
            if (channel !== undefined) {
              const index = pixel * info.channels;
              const bits = encode(channel, image.recorded[index] ?? 0);
              const step = disagreement === "differs" ? 2 : 1;
              image.replayed[index] = decode(channel, bits + (bits >= step ? -step : step));
            }
          }
        }
      }
    }
    this.images = images;
    return images;
  }

  imagesOf(target: TargetId): Images {
    this.target(target);
    const images = this.allImages().get(target);
    if (images === undefined) throw new BackendError({ kind: "request", what: "request", detail: `no images for ${target}` });
    return images;
  }
}

/** The format description of a target (a D24_UNORM_S8_UINT view has one for each plane). */
function formatOf(info: TargetInfo): FormatInfo {
  const key = info.format === "D24_UNORM_S8_UINT" ? `${info.format} ${info.target}` : info.format;
  const format = FORMATS[key];
  if (format === undefined) throw new BackendError({ kind: "invalid", what: "format", detail: `the mock has no format ${key}` });
  return format;
}

function targetInfo(target: TargetId, format: string, spec: DrawSpec): TargetInfo {
  const info = FORMATS[format];
  if (info === undefined) throw new Error(`mock: unknown format ${format}`);
  return {
    target,
    format: format.split(" ")[0] ?? format,
    kind: info.kind,
    channels: info.channels.length,
    width: spec.width,
    height: spec.height,
    samples: 1,
  };
}

function quantizeAll(format: string, values: number[]): number[] {
  const info = FORMATS[format];
  if (info === undefined) return values;
  return info.channels.map((channel, c) => decode(channel, encode(channel, values[c] ?? 0)));
}

/** SRC_ALPHA / INV_SRC_ALPHA blending when enabled; the source when not. */
function blend(enabled: boolean, source: number[], destination: number[]): number[] {
  if (!enabled) return [...source];
  const alpha = source[3] ?? 1;
  return source.map((value, c) => Math.fround(value * alpha + (destination[c] ?? 0) * (1 - alpha)));
}

// ---------------------------------------------------------------------------------------------------------------
// Programs and traces

const PS_LINES = [
  "ps_5_0",
  "dcl_globalFlags refactoringAllowed",
  "dcl_constantbuffer CB0[2], immediateIndexed",
  "dcl_input_ps linear v1.xy",
  "dcl_input_ps linear v2.xyzw",
  "dcl_output o0.xyzw",
  "dcl_temps 2",
  "mul r0.xyzw, v2.xyzw, cb0[0].xyzw",
  "dp2 r1.x, v1.xyxx, v1.xyxx",
  "lt r1.y, r1.x, l(0.002500)",
  "discard_nz r1.y",
  "mad o0.xyz, r0.xyzx, cb0[1].xxxx, cb0[1].yyyy",
  "mov o0.w, r0.w",
  "ret",
];

const VS_LINES = [
  "vs_5_0",
  "dcl_globalFlags refactoringAllowed",
  "dcl_constantbuffer CB0[4], immediateIndexed",
  "dcl_input v0.xyz",
  "dcl_input v1.xy",
  "dcl_input v2.xyzw",
  "dcl_output_siv o0.xyzw, position",
  "dcl_output o1.xy",
  "dcl_output o2.xyzw",
  "dcl_temps 1",
  "mul r0.xyzw, v0.yyyy, cb0[1].xyzw",
  "mad r0.xyzw, v0.xxxx, cb0[0].xyzw, r0.xyzw",
  "mad r0.xyzw, v0.zzzz, cb0[2].xyzw, r0.xyzw",
  "add o0.xyzw, r0.xyzw, cb0[3].xyzw",
  "mov o1.xy, v1.xyxx",
  "mov o2.xyzw, v2.xyzw",
  "ret",
];

function hashOf(text: string): string {
  // a stand-in for the DXBC's SHA-256: 64 hex digits derived from the text (FNV-1a, repeated)
  let out = "";
  let state = 0x811c9dc5;
  for (let round = 0; out.length < 64; round++) {
    for (const char of `${round}${text}`) state = Math.imul(state ^ char.charCodeAt(0), 0x01000193) >>> 0;
    out += state.toString(16).padStart(8, "0");
  }
  return out.slice(0, 64);
}

function programInfo(stage: "vs" | "ps"): ProgramInfo {
  const lines = stage === "vs" ? VS_LINES : PS_LINES;
  return {
    stage,
    model: lines[0] ?? "",
    sha256: hashOf(lines.join("\n")),
    instruction_count: lines.filter((line) => !line.startsWith("dcl_") && !/^[vp]s_/.test(line)).length,
  };
}

function disassembly(stage: "vs" | "ps"): Disassembly {
  const lines = stage === "vs" ? VS_LINES : PS_LINES;
  let offset = 0;
  return {
    program: programInfo(stage),
    lines: lines.map((text, index) => {
      const line = { index, offset_dwords: offset, indent: 0, text, declaration: index === 0 || text.startsWith("dcl_") };
      offset += 2 + (text.match(/,/g)?.length ?? 0) * 2;
      return line;
    }),
  };
}

function register(name: string, semantic: string | null, values: number[]): RegisterValue {
  const rounded = values.map((value) => Math.fround(value));
  return {
    register: name,
    semantic,
    values: rounded,
    bits: rounded.map(f32Bits),
    text: `(${rounded.map(formatNumber).join(", ")})`,
  };
}

function pixelTrace(shaded: Shaded): ProgramTrace {
  const steps: TraceStep[] = [];
  const add = (line: number, reads: RegisterValue[], writes: RegisterValue[]): void => {
    steps.push({ step: steps.length, line, reads, writes });
  };
  const color = shaded.color;
  const uv = shaded.uv;
  const r0 = color.map((value, c) => value * (PS_TINT[c] ?? 1));
  add(7, [register("v2.xyzw", "COLOR0", color), register("cb0[0].xyzw", null, PS_TINT)], [register("r0.xyzw", null, r0)]);
  const dot = Math.fround(uv[0] * uv[0] + uv[1] * uv[1]);
  add(8, [register("v1.xy", "TEXCOORD0", uv)], [register("r1.x", null, [dot])]);
  const less = dot < PS_DISCARD_BELOW;
  add(9, [register("r1.x", null, [dot])], [
    { register: "r1.y", semantic: null, values: [bitsF32(less ? 0xffffffff : 0)], bits: [less ? 0xffffffff : 0], text: less ? "(0xffffffff)" : "(0x00000000)" },
  ]);
  add(10, [], []);
  if (!less) {
    add(11, [register("r0.xyz", null, r0.slice(0, 3)), register("cb0[1].xy", null, [1, 0])], [
      register("o0.xyz", "SV_Target0", r0.slice(0, 3)),
    ]);
    add(12, [register("r0.w", null, [r0[3] ?? 0])], [register("o0.w", "SV_Target0", [r0[3] ?? 0])]);
    add(13, [], []);
  }
  return { disassembly: disassembly("ps"), steps, omitted: null };
}

/** The mock's vertex program inputs: window position back to normalized device coordinates. */
function vertexInputs(v: MockVertex, width: number, height: number): number[] {
  return [(v.position[0] / width) * 2 - 1, 1 - (v.position[1] / height) * 2, v.position[2]];
}

function vertexRecord(tri: MockTriangle, corner: number, instance: number, width: number, height: number): VertexRecord {
  const v = tri.vertices[corner] ?? tri.vertices[0];
  const position = vertexInputs(v, width, height);
  return {
    vertex_id: tri.ids[corner] ?? 0,
    instance_id: instance,
    inputs: [
      register("v0.xyz", "POSITION0", position),
      register("v1.xy", "TEXCOORD0", v.uv),
      register("v2.xyzw", "COLOR0", v.color),
    ],
    outputs: [
      register("o0.xyzw", "SV_Position", [...position, 1]),
      register("o1.xy", "TEXCOORD0", v.uv),
      register("o2.xyzw", "COLOR0", v.color),
    ],
    window_position: [v.position[0], v.position[1], v.position[2]],
  };
}

function vertexTrace(record: VertexRecord): ProgramTrace {
  const position = record.inputs[0]?.values ?? [0, 0, 0];
  const [px, py, pz] = [position[0] ?? 0, position[1] ?? 0, position[2] ?? 0];
  const row = (i: number): number[] => [0, 1, 2, 3].map((c) => (c === i ? 1 : 0));
  const steps: TraceStep[] = [];
  const add = (line: number, reads: RegisterValue[], writes: RegisterValue[]): void => {
    steps.push({ step: steps.length, line, reads, writes });
  };
  const afterY = row(1).map((value) => value * py);
  const afterX = afterY.map((value, c) => px * (row(0)[c] ?? 0) + value);
  const afterZ = afterX.map((value, c) => pz * (row(2)[c] ?? 0) + value);
  const final = afterZ.map((value, c) => value + (c === 3 ? 1 : 0));
  add(10, [register("v0.y", "POSITION0", [py]), register("cb0[1].xyzw", null, row(1))], [register("r0.xyzw", null, afterY)]);
  add(11, [register("v0.x", "POSITION0", [px]), register("cb0[0].xyzw", null, row(0))], [register("r0.xyzw", null, afterX)]);
  add(12, [register("v0.z", "POSITION0", [pz]), register("cb0[2].xyzw", null, row(2))], [register("r0.xyzw", null, afterZ)]);
  add(13, [register("cb0[3].xyzw", null, row(3))], [register("o0.xyzw", "SV_Position", final)]);
  const uv = record.inputs[1]?.values ?? [0, 0];
  const color = record.inputs[2]?.values ?? [0, 0, 0, 0];
  add(14, [register("v1.xy", "TEXCOORD0", uv)], [register("o1.xy", "TEXCOORD0", uv)]);
  add(15, [register("v2.xyzw", "COLOR0", color)], [register("o2.xyzw", "COLOR0", color)]);
  add(16, [], []);
  return { disassembly: disassembly("vs"), steps, omitted: null };
}

// ---------------------------------------------------------------------------------------------------------------
// Display

const NAN_COLOR = [255, 0, 255];
const INF_COLOR = [0, 255, 255];
const DIFFERS_COLOR = [255, 48, 48];
const AMBIGUOUS_COLOR = [255, 176, 0];

function linearToSrgb(value: number): number {
  if (value <= 0.0031308) return value * 12.92;
  return 1.055 * value ** (1 / 2.4) - 0.055;
}

/** The natural display range of a kind when the request leaves it to the backend, or null to use the image's. */
function naturalRange(kind: ComponentKind): { min: number; max: number } | null {
  if (kind === "unorm") return { min: 0, max: 1 };
  if (kind === "snorm") return { min: -1, max: 1 };
  return null;
}

function toByte(value: number): number {
  return Math.max(0, Math.min(255, Math.round(value * 255)));
}

/** A heat colour for t in 0..1: dark blue, through magenta and orange, to yellow. */
function heat(t: number): number[] {
  const stops = [
    [40, 20, 90],
    [180, 30, 120],
    [250, 120, 30],
    [255, 240, 80],
  ];
  const scaled = Math.max(0, Math.min(1, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(scaled));
  const f = scaled - i;
  const a = stops[i] ?? [0, 0, 0];
  const b = stops[i + 1] ?? [0, 0, 0];
  return a.map((value, c) => Math.round(value + ((b[c] ?? 0) - value) * f));
}

function render(info: TargetInfo, images: Images, asked: ImageKind, display: DisplayOptions): RenderedImage {
  // the mock's perceptual map is its heatmap (it runs no FLIP)
  const kind: ImageKind = asked === "perceptual" ? "heatmap" : asked;
  const { width, height, channels } = info;
  const source = kind === "recorded" ? images.recorded : kind === "before" ? images.before : images.replayed;
  const shown = [display.channels.r, display.channels.g, display.channels.b, display.channels.a];
  const picked = [0, 1, 2, 3].filter((c) => c < channels && shown[c] === true);
  const colorPicked = picked.filter((c) => c < 3);
  let min = Infinity;
  let max = -Infinity;
  let nonFinite = 0;
  for (let pixel = 0; pixel < width * height; pixel++) {
    for (const c of picked) {
      const value = source[pixel * channels + c] ?? 0;
      if (Number.isFinite(value)) {
        min = Math.min(min, value);
        max = Math.max(max, value);
      } else nonFinite++;
    }
  }
  if (min > max) {
    min = 0;
    max = 1;
  }
  const range = display.range ?? naturalRange(info.kind) ?? { min, max: max > min ? max : min + 1 };
  const scale = range.max > range.min ? 1 / (range.max - range.min) : 1;
  const srgb = info.format.endsWith("_SRGB");
  const rgbaOut = new Uint8Array(width * height * 4);
  let maxDiff = 0;
  if (kind === "heatmap") {
    for (let i = 0; i < images.recorded.length; i++) {
      const d = Math.abs((images.replayed[i] ?? 0) - (images.recorded[i] ?? 0));
      if (Number.isFinite(d)) maxDiff = Math.max(maxDiff, d);
    }
  }
  for (let pixel = 0; pixel < width * height; pixel++) {
    const out = pixel * 4;
    const value = (c: number): number => source[pixel * channels + c] ?? 0;
    const norm = (v: number): number => {
      const t = (v - range.min) * scale;
      return toByte(srgb ? linearToSrgb(Math.max(0, Math.min(1, t))) : t);
    };
    let color: number[];
    const special = picked.map(value).find((v) => !Number.isFinite(v));
    if (display.highlight_non_finite && special !== undefined) color = Number.isNaN(special) ? NAN_COLOR : INF_COLOR;
    else if (colorPicked.length === 1 || channels === 1) {
      const c = colorPicked[0] ?? picked[0] ?? 0;
      const grey = norm(value(c));
      color = [grey, grey, grey];
    } else if (colorPicked.length === 0 && picked.includes(3)) {
      const grey = toByte(value(3));
      color = [grey, grey, grey];
    } else color = [0, 1, 2].map((c) => (colorPicked.includes(c) ? norm(value(c)) : 0));
    const verdict = images.verdicts[pixel] ?? 0;
    if (kind === "difference") {
      const grey = ((color[0] ?? 0) + (color[1] ?? 0) + (color[2] ?? 0)) / 3;
      color =
        verdict === 2
          ? DIFFERS_COLOR
          : verdict === 3
            ? AMBIGUOUS_COLOR
            : [0, 1, 2].map((c) => Math.round(grey * 0.45 + (color[c] ?? 0) * 0.2));
    } else if (kind === "heatmap") {
      let d = 0;
      for (let c = 0; c < channels; c++)
        d = Math.max(d, Math.abs((images.replayed[pixel * channels + c] ?? 0) - (images.recorded[pixel * channels + c] ?? 0)));
      const grey = ((color[0] ?? 0) + (color[1] ?? 0) + (color[2] ?? 0)) / 12;
      color = verdict >= 2 && maxDiff > 0 ? heat(0.25 + (0.75 * Math.log1p(d)) / Math.log1p(maxDiff)) : [grey, grey, grey];
    }
    rgbaOut[out] = color[0] ?? 0;
    rgbaOut[out + 1] = color[1] ?? 0;
    rgbaOut[out + 2] = color[2] ?? 0;
    const showAlpha = display.channels.a && channels === 4 && colorPicked.length > 0 && kind !== "difference" && kind !== "heatmap";
    rgbaOut[out + 3] = showAlpha ? toByte(value(3)) : 255;
  }
  return { width, height, rgba: rgbaOut, value_range: { min, max }, non_finite_texels: nonFinite };
}

// ---------------------------------------------------------------------------------------------------------------
// The capture and the backend

/** The variants the mock lists (the engine's first two). */
const MOCK_VARIANTS: VariantInfo[] = [
  { name: "unsnapped-interpolation", description: "attributes and depth interpolated over the unsnapped vertex positions", stage: "rasterizer" },
  { name: "blend-8bit", description: "8-bit UNORM targets blended in 8-bit fixed point", stage: "output merger" },
];

class MockCapture {
  readonly draws: MockDraw[];
  /** The limits set (the mock's draws are synthetic: it reports them, it does not enforce them). */
  limits: Limits = { max_memory: 1024 * 1024 * 1024, max_work: 2 ** 36 };
  /** The variants set (reported; the mock's synthetic draws do not change under them). */
  variants: string[] = [];
  constructor(
    readonly id: number,
    readonly name: string,
    readonly size: number,
  ) {
    this.draws = mockDraws().map((spec, index) => new MockDraw(index, spec));
  }

  draw(index: number): MockDraw {
    const draw = this.draws[index];
    if (draw === undefined)
      throw new BackendError({
        kind: "request",
        what: "request",
        at: `draw ${index}`,
        detail: `the capture has ${this.draws.length} draws (0 to ${this.draws.length - 1})`,
      });
    return draw;
  }
}

const MOCK_MAGIC = "IRIDIA-MOCK";

/** Checks that bytes look like a capture, with the errors the real reader gives for other files. */
function checkCaptureBytes(bytes: Uint8Array): void {
  const head = String.fromCharCode(...bytes.subarray(0, MOCK_MAGIC.length));
  if (head === MOCK_MAGIC) return;
  const zip = bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
  if (!zip)
    throw new BackendError({
      kind: "invalid",
      what: "capture",
      at: "byte 0",
      detail: "not a capture: an .iridia capture is a ZIP archive, which starts with PK\\x03\\x04",
    });
  const tail = bytes.subarray(Math.max(0, bytes.length - 22));
  const eocd = tail[0] === 0x50 && tail[1] === 0x4b && tail[2] === 0x05 && tail[3] === 0x06;
  if (!eocd)
    throw new BackendError({
      kind: "invalid",
      what: "capture",
      at: `byte ${bytes.length}`,
      detail: "corrupt ZIP archive: the end-of-central-directory record is missing (truncated file?)",
    });
}

/** Options of the mock. */
export interface MockOptions {
  /** How long each of a replay's ten steps takes, in milliseconds. */
  replayStepMs: number;
}

/** The mock backend. */
export function createMockBackend(options: Partial<MockOptions> = {}): Backend {
  const replayStepMs = options.replayStepMs ?? 40;
  const captures = new Map<number, MockCapture>();
  let nextCapture = 1;
  /** Set by crash_for_test: as after a trap, every later request about a capture fails with it. */
  let crash: ErrorInfo | null = null;

  const capture = (id: number): MockCapture => {
    if (crash !== null) throw new BackendError(crash);
    const found = captures.get(id);
    if (found === undefined) throw new BackendError({ kind: "request", what: "request", detail: `no open capture ${id}` });
    return found;
  };

  const status = (draw: MockDraw): DrawStatus => {
    if (draw.spec.replayError !== null && draw.replayed) return { state: "error", error: draw.spec.replayError };
    if (!draw.replayed) return { state: "not_replayed" };
    let differing = 0;
    let ambiguous = 0;
    let compared = 0;
    for (const info of draw.targets) {
      const images = draw.imagesOf(info.target);
      compared += info.width * info.height;
      for (const verdict of images.verdicts) {
        if (verdict === 2) differing++;
        if (verdict === 3) ambiguous++;
      }
    }
    if (differing + ambiguous === 0) return { state: "matches", compared_pixels: compared };
    return { state: "differs", differing_pixels: differing, ambiguous_pixels: ambiguous, compared_pixels: compared };
  };

  const drawInfo = (draw: MockDraw): DrawInfo => ({
    index: draw.index,
    name: draw.spec.name,
    api_call: draw.spec.api_call,
    vs: programInfo("vs"),
    ps: draw.spec.hasPixelShader ? programInfo("ps") : null,
    targets: draw.targets,
    status: status(draw),
  });

  const requireReplayed = (draw: MockDraw): void => {
    if (!draw.replayed)
      throw new BackendError({ kind: "not_replayed", what: "request", at: `draw ${draw.index}`, detail: "the draw has not been replayed" });
    if (draw.spec.replayError !== null) throw new BackendError(draw.spec.replayError);
  };

  const texelOf = (info: TargetInfo, values: number[]): TexelValue => {
    const format = formatOf(info);
    const channels: ChannelValue[] = format.channels.map((channel, c) => {
      const value = values[c] ?? 0;
      const bits = encode(channel, value);
      return { channel: channel.name, value, bits, text: channelText(channel, value, bits) };
    });
    return { channels, hex: texelHex(format, channels.map((channel) => channel.bits)) };
  };

  const readTexel = (info: TargetInfo, values: Float32Array, x: number, y: number): TexelValue => {
    const pixel = y * info.width + x;
    return texelOf(info, Array.from(values.subarray(pixel * info.channels, (pixel + 1) * info.channels)));
  };

  const checkPixel = (info: TargetInfo, x: number, y: number): void => {
    if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= info.width || y >= info.height)
      throw new BackendError({
        kind: "request",
        what: "request",
        at: `pixel (${x}, ${y})`,
        detail: `outside the ${info.width}×${info.height} target`,
      });
  };

  const verdictOf = (images: Images, info: TargetInfo, x: number, y: number, replayed: boolean): PixelVerdictKind => {
    if (!replayed) return "not_replayed";
    const verdict = images.verdicts[y * info.width + x] ?? 0;
    return verdict === 0 ? "not_covered" : verdict === 2 ? "differs" : verdict === 3 ? "ambiguous" : "matches";
  };

  const handlers: Handlers = {
    open_capture: async (request, job) => {
      const bytes = new Uint8Array(
        "bytes" in request ? request.bytes : "blob" in request ? await request.blob.arrayBuffer() : await (await fetch(request.url)).arrayBuffer(),
      );
      job.progress({ stage: "reading the manifest", done: 0, total: 1 });
      await job.pause();
      checkCaptureBytes(bytes);
      const id = nextCapture++;
      const opened = new MockCapture(id, request.name, bytes.length);
      captures.set(id, opened);
      const summary: CaptureSummary = {
        capture: id,
        format_version: "1.0",
        generator: "iridia mock backend",
        application: "Synthetic scene",
        draw_count: opened.draws.length,
        size_bytes: bytes.length,
        limits: opened.limits,
        variants: opened.variants,
        available_variants: MOCK_VARIANTS,
        unrecorded_draws: [],
        resolves: [],
        dispatches: [],
        outline: opened.draws.map((_, index) => ({ depth: 0, kind: "draw" as const, index, call: null, text: "" })),
        has_markers: false,
        events_problem: null,
      };
      return summary;
    },
    set_variants: async (request) => {
      const opened = capture(request.capture);
      const unknown = request.variants.find((name) => !MOCK_VARIANTS.some((v) => v.name === name));
      if (unknown !== undefined) throw new BackendError({ kind: "request", what: "variants", detail: `no variant or profile is named "${unknown}"` });
      opened.variants = MOCK_VARIANTS.filter((v) => request.variants.includes(v.name)).map((v) => v.name);
      return opened.variants;
    },
    explain: async (request, job) => {
      const draw = capture(request.capture).draw(request.draw);
      const total = 2 ** MOCK_VARIANTS.length;
      for (let done = 1; done <= total; done++) {
        job.progress({ stage: "variant sets", done, total });
        await job.pause();
      }
      // the mock's draws change under no variant: nothing a variant explains
      const differing = draw.spec.triangles.length > 0 ? 1 : 0;
      return {
        draw: request.draw,
        target: "rt0",
        baseline_differing_pixels: differing,
        baseline_max_ulp: differing,
        rows: MOCK_VARIANTS.map((variant) => ({ variant, differing_pixels: differing, max_ulp: differing })),
        best: [],
        best_differing_pixels: differing,
        best_max_ulp: differing,
        verdict: differing === 0 ? "nothing to explain: no pixel of rt0 differs" : `unexplained: ${differing} pixels remain (no variant reduces them)`,
      };
    },
    set_limits: async (request) => {
      const opened = capture(request.capture);
      opened.limits = { ...request.limits };
      return opened.limits;
    },
    close_capture: async (request) => {
      captures.delete(request.capture);
      return null;
    },
    list_draws: async (request) => capture(request.capture).draws.map(drawInfo),
    replay: async (request, job) => {
      const draw = capture(request.capture).draw(request.draw);
      const total = Math.max(1, draw.spec.triangles.length) * 5;
      for (let done = 0; done < total; done += Math.max(1, total / 10)) {
        job.progress({ stage: "primitives", done: Math.floor(done), total });
        await new Promise<void>((resolve) => setTimeout(resolve, replayStepMs));
        job.checkCancelled();
      }
      job.progress({ stage: "primitives", done: total, total });
      draw.replayed = true;
      if (draw.spec.replayError !== null) throw new BackendError(draw.spec.replayError);
      let fragments = 0;
      let shaded = 0;
      for (let y = 0; y < draw.spec.height; y++)
        for (let x = 0; x < draw.spec.width; x++)
          for (const fragment of draw.fragments(x, y).fragments) {
            fragments++;
            if (fragment.outcome !== "discarded") shaded++;
          }
      return {
        draw: draw.index,
        primitives: draw.spec.triangles.length,
        fragments,
        shaded_fragments: shaded,
        status: status(draw),
      };
    },
    compare: async (request) => {
      const draw = capture(request.capture).draw(request.draw);
      requireReplayed(draw);
      const targets: TargetComparison[] = draw.targets.map((info) => {
        const images = draw.imagesOf(info.target);
        const format = formatOf(info);
        let differing = 0;
        let ambiguous = 0;
        let first: PixelCoord | null = null;
        images.verdicts.forEach((verdict, pixel) => {
          if (verdict === 2) {
            differing++;
            first ??= { x: pixel % info.width, y: Math.floor(pixel / info.width) };
          }
          if (verdict === 3) ambiguous++;
        });
        const channels: ChannelStats[] = format.channels.map((channel, c) => {
          let maxAbs = 0;
          let sum = 0;
          let maxUlps = 0;
          for (let pixel = 0; pixel < info.width * info.height; pixel++) {
            const a = images.replayed[pixel * info.channels + c] ?? 0;
            const b = images.recorded[pixel * info.channels + c] ?? 0;
            if (!Number.isFinite(a) || !Number.isFinite(b)) continue;
            const d = Math.abs(a - b);
            maxAbs = Math.max(maxAbs, d);
            sum += d;
            maxUlps = Math.max(maxUlps, Math.abs(encode(channel, a) - encode(channel, b)));
          }
          return {
            channel: channel.name,
            max_abs_difference: maxAbs,
            mean_abs_difference: sum / (info.width * info.height),
            max_ulps: maxUlps,
          };
        });
        return {
          target: info.target,
          compared_pixels: info.width * info.height,
          differing_pixels: differing,
          ambiguous_pixels: ambiguous,
          channels,
          first_difference: first,
          sample_differing_pixels: [],
          resolved_differing_pixels: null,
          perceptual: null,
          bounds: coveredBounds(images.verdicts, info.width),
        };
      });
      const result: CompareResult = { draw: draw.index, targets, status: status(draw) };
      return result;
    },
    render_target: async (request) => {
      const draw = capture(request.capture).draw(request.draw);
      const info = draw.target(request.target);
      if (request.resolved)
        throw new BackendError({ kind: "request", what: "request", detail: `${request.target} has no resolved view: the mock's targets have one sample` });
      if (request.image !== "recorded" && request.image !== "before") requireReplayed(draw);
      return render(info, draw.imagesOf(request.target), request.image, request.display);
    },
    thumbnail: async (request) => {
      // the mock's targets are small: its recorded rt0 (else depth) as it is
      const draw = capture(request.capture).draw(request.draw);
      const target = draw.targets.some((t) => t.target === "rt0") ? "rt0" : "depth";
      return render(draw.target(target), draw.imagesOf(target), "recorded", { channels: { r: true, g: true, b: true, a: false }, range: null, highlight_non_finite: true });
    },
    read_texels: async (request) => {
      const draw = capture(request.capture).draw(request.draw);
      const info = draw.target(request.target);
      checkPixel(info, request.x, request.y);
      const images = draw.imagesOf(request.target);
      const replayedOk = draw.replayed && draw.spec.replayError === null;
      const recorded = readTexel(info, images.recorded, request.x, request.y);
      const replayed = replayedOk ? readTexel(info, images.replayed, request.x, request.y) : null;
      const difference: ChannelDifference[] =
        replayed === null
          ? []
          : recorded.channels.map((channel, c) => {
              const other = replayed.channels[c] ?? channel;
              const d = other.value - channel.value;
              const ulps = Number.isFinite(d) ? other.bits - channel.bits : null;
              return {
                channel: channel.channel,
                difference: d,
                ulps,
                text: `${d >= 0 ? "+" : ""}${formatNumber(d)}${ulps === null ? "" : ` (${ulps >= 0 ? "+" : ""}${ulps} ULP)`}`,
              };
            });
      const readout: TexelReadout = {
        target: info.target,
        x: request.x,
        y: request.y,
        format: info.format,
        recorded,
        replayed,
        before: readTexel(info, images.before, request.x, request.y),
        difference,
        verdict: verdictOf(images, info, request.x, request.y, replayedOk),
      };
      return readout;
    },
    find_difference: async (request) => {
      const draw = capture(request.capture).draw(request.draw);
      requireReplayed(draw);
      const info = draw.target(request.target);
      const images = draw.imagesOf(request.target);
      const count = info.width * info.height;
      const start = Math.min(count - 1, Math.max(0, request.y * info.width + request.x));
      for (let step = 1; step <= count; step++) {
        const pixel = (start + (request.backwards ? count - step : step)) % count;
        const verdict = images.verdicts[pixel] ?? 0;
        if (verdict === 2 || verdict === 3) return { x: pixel % info.width, y: Math.floor(pixel / info.width) };
      }
      return null;
    },
    inspect_pixel: async (request) => {
      const draw = capture(request.capture).draw(request.draw);
      const info = draw.target(request.target);
      checkPixel(info, request.x, request.y);
      requireReplayed(draw);
      const spec = draw.spec;
      const { fragments } = draw.fragments(request.x, request.y);
      const images = draw.imagesOf(request.target);
      const slot = request.target.startsWith("rt") ? Number(request.target.slice(2)) : -1;
      const records: FragmentRecord[] = fragments.map((fragment, order) => {
        const tri = spec.triangles[fragment.primitive];
        const vertices = tri === undefined ? [] : [0, 1, 2].map((corner) => vertexRecord(tri, corner, 0, spec.width, spec.height));
        const depth: DepthResult | null =
          fragment.storedDepth === null
            ? null
            : {
                func: "LESS",
                fragment_depth: fragment.shaded.depth,
                stored_depth: fragment.storedDepth,
                passed: fragment.depthPassed,
                written: fragment.depthPassed && !fragment.shaded.discarded,
              };
        const stencil: StencilResult | null =
          spec.depthStencil === "D24_UNORM_S8_UINT"
            ? { func: "ALWAYS", reference: 1, stored: 0, read_mask: 255, passed: true, result: fragment.depthPassed ? 1 : 0 }
            : null;
        const blends: BlendResult[] =
          fragment.outcome !== "written"
            ? []
            : fragment.outputs.map((source, s) => {
                const targetId = `rt${s}` as TargetId;
                const format = spec.colors[s] ?? "";
                const result = fragment.results[s] ?? source;
                const slotInfo = draw.targets.find((t) => t.target === targetId);
                const stored: TexelValue =
                  slotInfo === undefined ? { channels: [], hex: "" } : texelOf(slotInfo, quantizeAll(format, result));
                return {
                  target: targetId,
                  enabled: spec.blend && s === 0,
                  source,
                  destination: fragment.destination[s] ?? [],
                  equation: spec.blend && s === 0 ? "SRC_ALPHA × src + INV_SRC_ALPHA × dest" : "src (blending off)",
                  result,
                  stored,
                };
              });
        const shaded = fragment.shaded;
        return {
          order,
          primitive_id: fragment.primitive,
          instance_id: 0,
          front_facing: true,
          vertices,
          barycentrics: shaded.barycentrics,
          pixel_inputs: spec.hasPixelShader
            ? [
                register("v0.xyzw", "SV_Position", [request.x + 0.5, request.y + 0.5, shaded.depth, 1]),
                register("v1.xy", "TEXCOORD0", shaded.uv),
                register("v2.xyzw", "COLOR0", shaded.color),
              ]
            : [],
          pixel_outputs: fragment.outputs.map((output, s) => register(`o${s}`, `SV_Target${s}`, output)),
          discarded: fragment.outcome === "discarded",
          depth,
          stencil,
          blend: blends,
          outcome: fragment.outcome,
          covered_samples: 1,
          written_samples: fragment.outcome === "written" ? 1 : 0,
          samples: [],
        };
      });
      const verdict = verdictOf(images, info, request.x, request.y, true);
      const lastWritten = [...records].reverse().find((record) => record.outcome === "written");
      let text: string;
      switch (verdict) {
        case "not_covered":
          text =
            records.length === 0
              ? "no fragment of this draw reached the pixel; it keeps its value from before the draw"
              : `${records.length} fragment(s) reached the pixel but none was written (${records.map((r) => r.outcome.replace("_", " ")).join(", ")})`;
          break;
        case "matches":
          text = `fragment ${lastWritten?.order ?? 0} (primitive ${lastWritten?.primitive_id ?? 0}) wrote the value the GPU has`;
          break;
        case "ambiguous":
          text = `the pixel centre lies on an edge; the spec lets the GPU's value stand as well as ours`;
          break;
        default: {
          const pixel = request.y * info.width + request.x;
          const ours = images.replayed[pixel * info.channels] ?? 0;
          const theirs = images.recorded[pixel * info.channels] ?? 0;
          text = `fragment ${lastWritten?.order ?? 0} (primitive ${lastWritten?.primitive_id ?? 0}) gives ${formatNumber(ours)} in channel ${slot >= 0 ? "r" : request.target} where the GPU wrote ${formatNumber(theirs)}`;
        }
      }
      const history: PixelHistory = {
        target: request.target,
        x: request.x,
        y: request.y,
        sample: 0,
        samples: 1,
        verdict,
        verdict_text: text,
        explained_by: null,
        fragments: records,
      };
      return history;
    },
    trace_pixel: async (request) => {
      const draw = capture(request.capture).draw(request.draw);
      requireReplayed(draw);
      if (!draw.spec.hasPixelShader)
        throw new BackendError({ kind: "request", what: "request", at: `draw ${draw.index}`, detail: "the draw has no pixel program" });
      const fragment = draw.fragments(request.x, request.y).fragments[request.fragment];
      if (fragment === undefined)
        throw new BackendError({
          kind: "request",
          what: "request",
          at: `pixel (${request.x}, ${request.y})`,
          detail: `the pixel has no fragment ${request.fragment}`,
        });
      return pixelTrace(fragment.shaded);
    },
    trace_vertex: async (request) => {
      const draw = capture(request.capture).draw(request.draw);
      for (const tri of draw.spec.triangles) {
        const corner = tri.ids.indexOf(request.vertex_id);
        if (corner >= 0) return vertexTrace(vertexRecord(tri, corner, request.instance_id, draw.spec.width, draw.spec.height));
      }
      throw new BackendError({ kind: "request", what: "request", at: `vertex ${request.vertex_id}`, detail: "the draw has no such vertex" });
    },
    disassemble: async (request) => {
      const draw = capture(request.capture).draw(request.draw);
      if (request.stage === "ps" && !draw.spec.hasPixelShader)
        throw new BackendError({ kind: "request", what: "request", at: `draw ${draw.index}`, detail: "the draw has no pixel program" });
      if (request.stage === "cs") throw new BackendError({ kind: "request", what: "request", at: `draw ${draw.index}`, detail: "a draw has no compute program" });
      return disassembly(request.stage);
    },
    // the mock's captures hold no dispatches
    program_listing: async (request) => {
      throw new BackendError({ kind: "request", what: "request", detail: `the mock cannot edit draw ${request.draw}'s programs` });
    },
    edit_program: async (request) => {
      throw new BackendError({ kind: "request", what: "request", detail: `the mock cannot edit draw ${request.draw}'s programs` });
    },
    edit_changes: async () => [],
    clear_program_edit: async () => null,
    replay_dispatch: async (request) => {
      throw new BackendError({ kind: "request", what: "request", detail: `there is no dispatch ${request.dispatch}; the mock's captures have none` });
    },
    render_dispatch_view: async (request) => {
      throw new BackendError({ kind: "request", what: "request", detail: `there is no dispatch ${request.dispatch}; the mock's captures have none` });
    },
    inspect_dispatch_element: async (request) => {
      throw new BackendError({ kind: "request", what: "request", detail: `there is no dispatch ${request.dispatch}; the mock's captures have none` });
    },
    inspect_dispatch_counter: async (request) => {
      throw new BackendError({ kind: "request", what: "request", detail: `there is no dispatch ${request.dispatch}; the mock's captures have none` });
    },
    crash_for_test: async () => {
      crash = { kind: "invalid", what: "wasm", at: "crash_for_test()", detail: "the replay engine crashed (RuntimeError: unreachable; the mock's imitation)" };
      throw new BackendError(crash);
    },
  };

  return { kind: "mock", version: "mock", handlers, crashed: () => crash };
}
