#!/usr/bin/env python3
"""Writes an Iridia capture following docs/capture-format.md alone, with nothing but the standard library.

Usage: capture_python_writer.py OUT.iridia VS.dxbc PS.dxbc

The capture has two draws of the same programs into one 4x4 R8G8B8A8_UNORM target and a 4x4 D24_UNORM_S8_UINT
depth-stencil target. The second draw's "before" is the first draw's "after", so blobs repeat and are stored once.
The pixel stage binds a 4x4 texture with two mips and a sampler whose border colour holds a NaN (written as a
string, section 3) and numbers. Some entries are deflated, some stored (section 1). tests/capture_format.rs reads the
result with `iridia info --json` and with the library, and checks what this script says it wrote.
"""
import hashlib
import json
import struct
import sys
import zipfile


class Capture:
    """A capture being written: blobs into the archive as they come, deduplicated by SHA-256; the manifest last."""

    def __init__(self, path):
        self.zip = zipfile.ZipFile(path, "w")
        self.written = set()
        self.draws = []
        self.count = 0

    def blob(self, data):
        """Section 2: the blob reference of `data`, writing blobs/<sha256> once."""
        digest = hashlib.sha256(data).hexdigest()
        if digest not in self.written:
            self.written.add(digest)
            # Section 1: stored or deflated; alternate, to use both.
            method = zipfile.ZIP_DEFLATED if self.count % 2 == 0 else zipfile.ZIP_STORED
            self.count += 1
            self.zip.writestr("blobs/" + digest, data, compress_type=method)
        return {"sha256": digest, "size": len(data)}

    def finish(self, generator):
        manifest = {"format": "iridia-capture", "version": "1.0", "generator": generator, "draws": self.draws}
        self.zip.writestr("manifest.json", json.dumps(manifest, indent=1), compress_type=zipfile.ZIP_DEFLATED)
        self.zip.close()


def stage(dxbc, constant_buffers=(), shader_resources=(), samplers=()):
    return {"dxbc": dxbc, "constant_buffers": list(constant_buffers),
            "shader_resources": list(shader_resources), "samplers": list(samplers)}


def stencil_face():
    return {"fail": "KEEP", "depth_fail": "KEEP", "pass": "REPLACE", "func": "ALWAYS"}


def rt_blend(enable):
    return {"blend_enable": enable, "logic_op_enable": False, "src_blend": "SRC_ALPHA", "dest_blend": "INV_SRC_ALPHA",
            "blend_op": "ADD", "src_blend_alpha": "ONE", "dest_blend_alpha": "ZERO", "blend_op_alpha": "ADD",
            "logic_op": "NOOP", "render_target_write_mask": 15}


def texture_2d(fmt, width, height):
    return {"dimension": "TEXTURE2D", "format": fmt, "width": width, "height": height, "depth": 1,
            "array_size": 1, "mip_levels": 1, "sample_count": 1}


def d24(depth, stencil):
    """Section 5: D24_UNORM_S8_UINT is a little-endian word, depth in bits 0-23, stencil in bits 24-31."""
    return struct.pack("<I", round(depth * 0xFFFFFF) | stencil << 24)


def main():
    out, vs_path, ps_path = sys.argv[1:4]
    vs = open(vs_path, "rb").read()
    ps = open(ps_path, "rb").read()
    cap = Capture(out)

    vertices = struct.pack("<6f", -1, -1, 0, 3, 3, -1)          # three float2 positions
    indices = struct.pack("<4H", 0, 1, 2, 0)                     # R16_UINT, 4 indices (8 bytes)
    constants = struct.pack("<16f", *range(16))                   # one float4x4
    mip0 = bytes(range(64))                                       # 4x4 R8G8B8A8
    mip1 = bytes(range(100, 116))                                 # 2x2 R8G8B8A8
    color_clear = bytes(64)                                       # 4x4 R8G8B8A8 zeros
    color_first = bytes([255, 0, 0, 255] * 16)
    color_second = bytes([255, 0, 0, 255] * 8 + [0, 0, 255, 255] * 8)
    depth_clear = d24(1.0, 0) * 16
    depth_first = d24(0.5, 7) * 16
    depth_second = d24(0.5, 7) * 8 + d24(0.25, 9) * 8

    def draw(name, before, after):
        color_before, depth_before = before
        color_after, depth_after = after
        return {
            "name": name,
            "api_call": "DrawIndexed(3, 0, 0)",
            "call": {"kind": "DrawIndexed", "index_count": 3, "start_index": 0, "base_vertex": 0},
            "topology": "TRIANGLELIST",
            "input_layout": [{"semantic_name": "POSITION", "semantic_index": 0, "format": "R32G32_FLOAT",
                              "input_slot": 0, "aligned_byte_offset": 4294967295,
                              "input_slot_class": "PER_VERTEX_DATA", "instance_data_step_rate": 0}],
            "vertex_buffers": [{"slot": 0, "data": cap.blob(vertices), "stride": 8, "offset": 0}],
            "index_buffer": {"data": cap.blob(indices), "format": "R16_UINT", "offset": 0},
            "vs": stage(cap.blob(vs), constant_buffers=[
                {"slot": 0, "data": cap.blob(constants), "first_constant": 0, "num_constants": 4}]),
            "ps": stage(cap.blob(ps), shader_resources=[{
                "slot": 2,
                "view": {"format": "R8G8B8A8_UNORM", "dimension": "TEXTURE2D", "most_detailed_mip": 0,
                         "mip_levels": 4294967295, "first_array_slice": 0, "array_size": 1, "first_element": 0,
                         "num_elements": 0, "raw": False, "structure_stride": 0},
                "resource": {"kind": "texture",
                             "shape": {"dimension": "TEXTURE2D", "format": "R8G8B8A8_TYPELESS", "width": 4,
                                       "height": 4, "depth": 1, "array_size": 1, "mip_levels": 2,
                                       "sample_count": 1},
                             "subresources": [cap.blob(mip0), cap.blob(mip1)]},
            }], samplers=[{
                "slot": 1, "filter": "MIN_MAG_MIP_LINEAR", "address_u": "BORDER", "address_v": "WRAP",
                "address_w": "CLAMP", "mip_lod_bias": -0.5, "max_anisotropy": 1, "comparison": "NEVER",
                "border_color": ["nan", 0.25, "0x3f800000", "-inf"], "min_lod": 0, "max_lod": 3.4028234663852886e38,
            }]),
            "rasterizer": {"fill_mode": "SOLID", "cull_mode": "NONE", "front_counter_clockwise": False,
                           "depth_bias": 0, "depth_bias_clamp": 0.0, "slope_scaled_depth_bias": 0.0,
                           "depth_clip_enable": True, "scissor_enable": False, "multisample_enable": False,
                           "antialiased_line_enable": False},
            "depth_stencil": {"depth_enable": True, "depth_write_mask": "ALL", "depth_func": "LESS_EQUAL",
                              "stencil_enable": True, "stencil_read_mask": 255, "stencil_write_mask": 255,
                              "front_face": stencil_face(), "back_face": stencil_face()},
            "stencil_ref": 7,
            "blend": {"alpha_to_coverage_enable": False, "independent_blend_enable": False,
                      "render_target": [rt_blend(True)] + [rt_blend(False)] * 7},
            "blend_factor": [1.0, 1.0, 1.0, 1.0],
            "sample_mask": 4294967295,
            "viewports": [{"x": 0, "y": 0, "width": 4, "height": 4, "min_depth": 0, "max_depth": 1}],
            "scissor_rects": [],
            "render_targets": [{
                "slot": 0,
                "view": {"format": "R8G8B8A8_UNORM", "dimension": "TEXTURE2D", "mip_slice": 0,
                         "first_array_slice": 0, "array_size": 1},
                "resource": texture_2d("R8G8B8A8_UNORM", 4, 4),
                "before": cap.blob(color_before),
                "after": cap.blob(color_after),
            }],
            "depth_stencil_view": {
                "view": {"format": "D24_UNORM_S8_UINT", "dimension": "TEXTURE2D", "mip_slice": 0,
                         "first_array_slice": 0, "array_size": 1, "read_only_depth": False,
                         "read_only_stencil": False},
                "resource": texture_2d("R24G8_TYPELESS", 4, 4),
                "before": cap.blob(depth_before),
                "after": cap.blob(depth_after) if depth_after is not None else None,
            },
        }

    cap.draws.append(draw("first", (color_clear, depth_clear), (color_first, depth_first)))
    cap.draws.append(draw("second", (color_first, depth_first), (color_second, None)))
    cap.finish("capture_python_writer.py")


if __name__ == "__main__":
    main()
