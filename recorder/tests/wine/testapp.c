/* testapp.exe - the recorder's test program: a small D3D11 frame drawn through every path a program can take to a
 * context, for the recorder to record under Wine.
 *
 * usage: testapp.exe SHADER_DIR OUT_DIR FRAMES CHECKED_FRAME
 *        testapp.exe SHADER_DIR bench DRAWS FRAMES WIDTH HEIGHT   (TESTAPP_BENCH_SAMPLES=N: N-sample targets)
 *
 * Each frame draws, on device A (D3D11CreateDeviceAndSwapChain):
 *   0  the out-parameter context: DrawIndexed, a dynamic constant buffer mapped for this draw, depth test and write
 *   1  ID3D11Device::GetImmediateContext: Draw, the constant buffer mapped again
 *   2  QueryInterface to ID3D11DeviceContext1: DrawInstanced (two instances), VSSetConstantBuffers1 with a window
 *   3  a texture's GetDevice, then GetImmediateContext: DrawIndexedInstanced, a textured quad (texture + sampler)
 *   4  a deferred context (CreateDeferredContext): Draw into render target 1, its own dynamic constant buffer
 *   5  a deferred context (ID3D11Device1::CreateDeferredContext1): DrawIndexed into render target 2, a scissor
 *      rectangle, another dynamic constant buffer mapped on that context (VSSetConstantBuffers1 on a deferred
 *      context is left out: Wine 8 crashes drawing with it)
 *   6  the back buffer: a quad sampling render target 0 through a linear sampler
 *   7  two render targets at once (mrt.hlsl) and a D24_UNORM_S8_UINT depth-stencil target cleared to depth 1,
 *      stencil 0, with the stencil tested (EQUAL 0, INCR_SAT on pass): DrawIndexed
 *   8  the same targets and state, the triangle moved: Draw (where draw 7 drew, the stencil test fails)
 *   9  a quad (sampled.hlsl) sampling a Texture2DArray, a cube map, a dynamic texture mapped (WRITE_DISCARD) this
 *      frame and a texture updated this frame with UpdateSubresource (a box)
 *  10  a 4x multisampled pass: a colour target and a D24_UNORM_S8_UINT depth-stencil target, both 4 samples, the
 *      stencil cleared to 0 and tested as in draw 7: DrawIndexed
 *  11  the same, moved: Draw; then ResolveSubresource of the colour target into a single-sampled target
 *  12  a quad sampling the resolved target through a linear sampler
 * then Present on swap chain A; and on device B (D3D11CreateDevice, swap chain through IDXGIFactory::CreateSwapChain):
 *  13  a triangle into B's back buffer
 * then Present on swap chain B. Device A's draws are wrapped in the program's markers (ID3DUserDefinedAnnotation,
 * from QueryInterface on the contexts): a region "Frame" from before the first clears to after draw 12, holding
 * "Immediate paths" (draws 0 to 3, a point marker "Textured quad" before draw 3), "Deferred contexts" (draws 4 and 5;
 * draw 4 inside a region "Command list" begun and ended on its deferred context) and "Two targets" (the clears of
 * draws 7 and 8, and the draws). Device B's clear and draw are wrapped in the older D3D9-era markers (d3d9.dll's
 * D3DPERF_BeginEvent/EndEvent, imported): a region "Device B" holding a point marker "Device B triangle" before draw
 * 13, made through D3DPERF_SetMarker as GetProcAddress gives it (looked up each frame, after the devices exist).
 * It prints the longest Present it made (the recorder must not make a Present wait for
 * its writer thread), then releases both swap chains (where the recorder waits for its writers) and exits.
 * In frame CHECKED_FRAME it reads back every target the draw writes before and after each draw (for the deferred
 * draws: before and after ExecuteCommandList; for the multisampled draws 10 and 11 through copies and its own
 * sample-reading program, drawing the pass again after the frame, see ms_pass), writes them to OUT_DIR/dNN_TARGET_{before,after}.bin, and lists them in OUT_DIR/readbacks.txt
 * ("draw target width height bytes_per_texel before_file after_file slot", slot -1 for the depth-stencil target);
 * it also reads back the resolved target after ResolveSubresource (resolved.bin), the dynamic texture after its
 * Map (mapped.bin) and the updated texture after UpdateSubresource (updated.bin). Staging copies of a
 * D24_UNORM_S8_UINT target give whatever layout the driver's copies have (Wine's: OpenGL's packing).
 *
 * With TESTAPP_UNRECORDABLE set, the checked frame has more draws after draw 9, one of which (a DrawAuto from a
 * buffer no stream output filled) the recorder cannot record, and two dispatches (see unrecordable_draws and
 * stage_draws); the tests compare that run's readbacks of the draws added with the capture.
 *
 * The sampled textures' contents (hand-checkable): slice s of the 4x4 array holds at (x, y) the RGBA8 texel
 * (60x, 60y, 80s + 10, 255); face f of the 4x4 cube (30 + 50y, 50x, 20 + 40f, 255); the 4x4 dynamic texture, in
 * frame n, (255 - 64y, 64x, 30n mod 256, 255); the 8x8 updated texture is (128, 128, 128, 255) but for the box
 * (2, 2)-(6, 6), rewritten each frame n to ((50n + 40x) mod 256, 40y, 0, 255) at texel (x, y) of the box's 4x4.
 *
 * bench: one frame is DRAWS small triangles into a WIDTH x HEIGHT target through the out-parameter context, each
 * with its constant buffer mapped anew, a 1x1 read of the target (to wait for the GPU) and Present; prints the
 * milliseconds of each frame, Present included, of its submission (from the clears to the last draw call
 * returning: the program's CPU time in the API, where the recorder's draw and Map hooks add theirs) and of its
 * Present (where the recorder's Present hook adds its own); the first two frames are warm-up.
 */
#define COBJMACROS
#define INITGUID
#include <windows.h>
#include <d3d11.h>
#include <d3d11_1.h>
#include <dxgi.h>
#include <d3d9.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(hr, what) do { HRESULT hr_ = (hr); if (FAILED(hr_)) { fprintf(stderr, "%s failed: %#lx\n", what, (unsigned long)hr_); exit(1); } } while (0)

static char shader_dir[MAX_PATH];
static char out_dir[MAX_PATH];

static void *load_file(const char *name, SIZE_T *size)
{
    char path[MAX_PATH * 2];
    FILE *f;
    void *data;
    long length;
    snprintf(path, sizeof(path), "%s\\%s", shader_dir, name);
    if (!(f = fopen(path, "rb"))) { fprintf(stderr, "cannot open %s\n", path); exit(1); }
    fseek(f, 0, SEEK_END);
    length = ftell(f);
    fseek(f, 0, SEEK_SET);
    data = malloc(length);
    if (fread(data, 1, length, f) != (size_t)length) { fprintf(stderr, "cannot read %s\n", path); exit(1); }
    fclose(f);
    *size = length;
    return data;
}

/* ------------------------------------------------------------------ a device's objects */
struct scene
{
    ID3D11Device *device;
    ID3D11VertexShader *vs_color, *vs_textured;
    ID3D11PixelShader *ps_color, *ps_textured, *ps_mrt, *ps_sampled;
    ID3D11InputLayout *layout_color, *layout_textured;
    ID3D11Buffer *vb_color, *vb_instance, *vb_textured, *ib, *cb_draw, *cb_window, *cb_tint;
    ID3D11Texture2D *texture;
    ID3D11ShaderResourceView *texture_view;
    ID3D11SamplerState *point_sampler, *linear_sampler;
    ID3D11DepthStencilState *depth_less, *stencil_once;
    ID3D11RasterizerState *no_cull;
    ID3D11BlendState *alpha_blend;
};

static ID3D11Buffer *make_buffer(ID3D11Device *device, UINT bind, UINT bytes, const void *data, int dynamic)
{
    D3D11_BUFFER_DESC desc = {0};
    D3D11_SUBRESOURCE_DATA init = {data, 0, 0};
    ID3D11Buffer *buffer;
    desc.ByteWidth = bytes;
    desc.Usage = dynamic ? D3D11_USAGE_DYNAMIC : D3D11_USAGE_DEFAULT;
    desc.BindFlags = bind;
    desc.CPUAccessFlags = dynamic ? D3D11_CPU_ACCESS_WRITE : 0;
    CHECK(ID3D11Device_CreateBuffer(device, &desc, data ? &init : NULL, &buffer), "CreateBuffer");
    return buffer;
}

static void make_scene(struct scene *s, ID3D11Device *device)
{
    static const D3D11_INPUT_ELEMENT_DESC color_elements[] =
    {
        {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
        {"COLOR", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, D3D11_APPEND_ALIGNED_ELEMENT, D3D11_INPUT_PER_VERTEX_DATA, 0},
        {"INSTANCE", 0, DXGI_FORMAT_R32G32_FLOAT, 1, 0, D3D11_INPUT_PER_INSTANCE_DATA, 1},
    };
    static const D3D11_INPUT_ELEMENT_DESC textured_elements[] =
    {
        {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
        {"TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 12, D3D11_INPUT_PER_VERTEX_DATA, 0},
    };
    /* three vertices of a triangle, off the pixel grid, with depths that overlap across draws */
    static const float color_vertices[] =
    {
        -0.61f, -0.53f, 0.30f, 1.0f, 0.2f, 0.1f, 1.0f,
         0.07f,  0.71f, 0.60f, 0.1f, 0.9f, 0.3f, 1.0f,
         0.58f, -0.42f, 0.45f, 0.2f, 0.3f, 1.0f, 0.5f,
    };
    static const float instances[] = {0.0f, 0.0f, -0.31f, 0.17f};
    static const float textured_vertices[] =
    {
        -0.9f, -0.9f, 0.2f, 0.0f, 1.0f,
        -0.9f,  0.1f, 0.2f, 0.0f, 0.0f,
         0.1f,  0.1f, 0.2f, 1.0f, 0.0f,
         0.1f, -0.9f, 0.2f, 1.0f, 1.0f,
    };
    static const UINT16 indices[] = {0, 1, 2, 0, 2, 3};
    float window[128] = {0};
    UINT texels[8 * 8];
    D3D11_TEXTURE2D_DESC tdesc = {0};
    D3D11_SUBRESOURCE_DATA tinit;
    D3D11_SAMPLER_DESC sdesc = {0};
    D3D11_DEPTH_STENCIL_DESC ddesc = {0};
    D3D11_RASTERIZER_DESC rdesc = {0};
    D3D11_BLEND_DESC bdesc = {0};
    SIZE_T size;
    void *code;
    int i;

    s->device = device;
    code = load_file("color.vs.dxbc", &size);
    CHECK(ID3D11Device_CreateVertexShader(device, code, size, NULL, &s->vs_color), "CreateVertexShader");
    CHECK(ID3D11Device_CreateInputLayout(device, color_elements, 3, code, size, &s->layout_color), "CreateInputLayout");
    free(code);
    code = load_file("textured.vs.dxbc", &size);
    CHECK(ID3D11Device_CreateVertexShader(device, code, size, NULL, &s->vs_textured), "CreateVertexShader");
    CHECK(ID3D11Device_CreateInputLayout(device, textured_elements, 2, code, size, &s->layout_textured), "CreateInputLayout");
    free(code);
    code = load_file("color.ps.dxbc", &size);
    CHECK(ID3D11Device_CreatePixelShader(device, code, size, NULL, &s->ps_color), "CreatePixelShader");
    free(code);
    code = load_file("textured.ps.dxbc", &size);
    CHECK(ID3D11Device_CreatePixelShader(device, code, size, NULL, &s->ps_textured), "CreatePixelShader");
    free(code);
    code = load_file("mrt.ps.dxbc", &size);
    CHECK(ID3D11Device_CreatePixelShader(device, code, size, NULL, &s->ps_mrt), "CreatePixelShader");
    free(code);
    code = load_file("sampled.ps.dxbc", &size);
    CHECK(ID3D11Device_CreatePixelShader(device, code, size, NULL, &s->ps_sampled), "CreatePixelShader");
    free(code);

    s->vb_color = make_buffer(device, D3D11_BIND_VERTEX_BUFFER, sizeof(color_vertices), color_vertices, 0);
    s->vb_instance = make_buffer(device, D3D11_BIND_VERTEX_BUFFER, sizeof(instances), instances, 0);
    s->vb_textured = make_buffer(device, D3D11_BIND_VERTEX_BUFFER, sizeof(textured_vertices), textured_vertices, 0);
    s->ib = make_buffer(device, D3D11_BIND_INDEX_BUFFER, sizeof(indices), indices, 0);
    s->cb_draw = make_buffer(device, D3D11_BIND_CONSTANT_BUFFER, 32, NULL, 1);
    /* constants 16..17 (bytes 256..287) are the window VSSetConstantBuffers1 shows: offset, tint */
    window[64] = 0.21f; window[65] = -0.13f; window[68] = 0.5f; window[69] = 1.0f; window[70] = 0.25f; window[71] = 1.0f;
    s->cb_window = make_buffer(device, D3D11_BIND_CONSTANT_BUFFER, sizeof(window), window, 0);
    {
        float tint[4] = {1.0f, 0.8f, 0.6f, 1.0f};
        s->cb_tint = make_buffer(device, D3D11_BIND_CONSTANT_BUFFER, sizeof(tint), tint, 0);
    }

    for (i = 0; i < 64; ++i)
        texels[i] = ((i & 1) ^ ((i >> 3) & 1)) ? 0xff2060e0u : 0xffe0c040u ^ (i * 0x00010307u);
    tdesc.Width = tdesc.Height = 8;
    tdesc.MipLevels = tdesc.ArraySize = 1;
    tdesc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    tdesc.SampleDesc.Count = 1;
    tdesc.Usage = D3D11_USAGE_DEFAULT;
    tdesc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    tinit.pSysMem = texels;
    tinit.SysMemPitch = 8 * 4;
    tinit.SysMemSlicePitch = 0;
    CHECK(ID3D11Device_CreateTexture2D(device, &tdesc, &tinit, &s->texture), "CreateTexture2D");
    CHECK(ID3D11Device_CreateShaderResourceView(device, (ID3D11Resource *)s->texture, NULL, &s->texture_view), "CreateShaderResourceView");

    sdesc.Filter = D3D11_FILTER_MIN_MAG_MIP_POINT;
    sdesc.AddressU = sdesc.AddressV = sdesc.AddressW = D3D11_TEXTURE_ADDRESS_CLAMP;
    sdesc.MaxAnisotropy = 1;
    sdesc.ComparisonFunc = D3D11_COMPARISON_NEVER;
    sdesc.MaxLOD = D3D11_FLOAT32_MAX;
    CHECK(ID3D11Device_CreateSamplerState(device, &sdesc, &s->point_sampler), "CreateSamplerState");
    sdesc.Filter = D3D11_FILTER_MIN_MAG_MIP_LINEAR;
    CHECK(ID3D11Device_CreateSamplerState(device, &sdesc, &s->linear_sampler), "CreateSamplerState");

    ddesc.DepthEnable = TRUE;
    ddesc.DepthWriteMask = D3D11_DEPTH_WRITE_MASK_ALL;
    ddesc.DepthFunc = D3D11_COMPARISON_LESS;
    CHECK(ID3D11Device_CreateDepthStencilState(device, &ddesc, &s->depth_less), "CreateDepthStencilState");
    ddesc.StencilEnable = TRUE;
    ddesc.StencilReadMask = ddesc.StencilWriteMask = 0xff;
    ddesc.FrontFace.StencilFunc = D3D11_COMPARISON_EQUAL;
    ddesc.FrontFace.StencilPassOp = D3D11_STENCIL_OP_INCR_SAT;
    ddesc.FrontFace.StencilFailOp = ddesc.FrontFace.StencilDepthFailOp = D3D11_STENCIL_OP_KEEP;
    ddesc.BackFace = ddesc.FrontFace;
    CHECK(ID3D11Device_CreateDepthStencilState(device, &ddesc, &s->stencil_once), "CreateDepthStencilState");
    rdesc.FillMode = D3D11_FILL_SOLID;
    rdesc.CullMode = D3D11_CULL_NONE;
    rdesc.DepthClipEnable = TRUE;
    CHECK(ID3D11Device_CreateRasterizerState(device, &rdesc, &s->no_cull), "CreateRasterizerState");
    bdesc.RenderTarget[0].BlendEnable = TRUE;
    bdesc.RenderTarget[0].SrcBlend = D3D11_BLEND_SRC_ALPHA;
    bdesc.RenderTarget[0].DestBlend = D3D11_BLEND_INV_SRC_ALPHA;
    bdesc.RenderTarget[0].BlendOp = D3D11_BLEND_OP_ADD;
    bdesc.RenderTarget[0].SrcBlendAlpha = D3D11_BLEND_ONE;
    bdesc.RenderTarget[0].DestBlendAlpha = D3D11_BLEND_ZERO;
    bdesc.RenderTarget[0].BlendOpAlpha = D3D11_BLEND_OP_ADD;
    bdesc.RenderTarget[0].RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL;
    CHECK(ID3D11Device_CreateBlendState(device, &bdesc, &s->alpha_blend), "CreateBlendState");
}

/* maps the dynamic constant buffer `cb` on `ctx` and writes an offset and a tint */
static void set_draw_constants(ID3D11DeviceContext *ctx, ID3D11Buffer *cb, float x, float y, float r, float g, float b, float a)
{
    D3D11_MAPPED_SUBRESOURCE mapped;
    float *f;
    CHECK(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)cb, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped), "Map");
    f = mapped.pData;
    f[0] = x; f[1] = y; f[2] = 0.0f; f[3] = 0.0f;
    f[4] = r; f[5] = g; f[6] = b; f[7] = a;
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)cb, 0);
}

/* binds the coloured-triangle pipeline on `ctx` into `rtv` (and `dsv`), over a viewport of w x h */
static void bind_color(struct scene *s, ID3D11DeviceContext *ctx, ID3D11RenderTargetView *rtv, ID3D11DepthStencilView *dsv,
        ID3D11Buffer *cb, float w, float h)
{
    UINT strides[2] = {28, 8}, offsets[2] = {0, 0};
    ID3D11Buffer *vbs[2] = {s->vb_color, s->vb_instance};
    D3D11_VIEWPORT vp = {0.0f, 0.0f, w, h, 0.0f, 1.0f};
    ID3D11DeviceContext_IASetInputLayout(ctx, s->layout_color);
    ID3D11DeviceContext_IASetVertexBuffers(ctx, 0, 2, vbs, strides, offsets);
    ID3D11DeviceContext_IASetIndexBuffer(ctx, s->ib, DXGI_FORMAT_R16_UINT, 0);
    ID3D11DeviceContext_IASetPrimitiveTopology(ctx, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D11DeviceContext_VSSetShader(ctx, s->vs_color, NULL, 0);
    ID3D11DeviceContext_VSSetConstantBuffers(ctx, 0, 1, &cb);
    ID3D11DeviceContext_PSSetShader(ctx, s->ps_color, NULL, 0);
    ID3D11DeviceContext_RSSetState(ctx, s->no_cull);
    ID3D11DeviceContext_RSSetViewports(ctx, 1, &vp);
    ID3D11DeviceContext_OMSetDepthStencilState(ctx, dsv ? s->depth_less : NULL, 0);
    ID3D11DeviceContext_OMSetBlendState(ctx, NULL, NULL, 0xffffffff);
    ID3D11DeviceContext_OMSetRenderTargets(ctx, 1, &rtv, dsv);
}

/* ------------------------------------------------------------------ targets and readbacks */
struct target
{
    ID3D11Texture2D *texture;
    ID3D11RenderTargetView *rtv;
    ID3D11DepthStencilView *dsv;
    ID3D11ShaderResourceView *srv;
    UINT width, height, bpp;
    int slot; /* the render-target slot it is bound to (-1: the depth-stencil target) */
};

static struct target make_target(ID3D11Device *device, UINT w, UINT h, DXGI_FORMAT format, int depth)
{
    struct target t = {0};
    D3D11_TEXTURE2D_DESC desc = {0};
    desc.Width = w;
    desc.Height = h;
    desc.MipLevels = desc.ArraySize = 1;
    desc.Format = format;
    desc.SampleDesc.Count = 1;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = depth ? D3D11_BIND_DEPTH_STENCIL : (D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE);
    CHECK(ID3D11Device_CreateTexture2D(device, &desc, NULL, &t.texture), "CreateTexture2D");
    if (depth)
        CHECK(ID3D11Device_CreateDepthStencilView(device, (ID3D11Resource *)t.texture, NULL, &t.dsv), "CreateDepthStencilView");
    else
    {
        CHECK(ID3D11Device_CreateRenderTargetView(device, (ID3D11Resource *)t.texture, NULL, &t.rtv), "CreateRenderTargetView");
        CHECK(ID3D11Device_CreateShaderResourceView(device, (ID3D11Resource *)t.texture, NULL, &t.srv), "CreateShaderResourceView");
    }
    t.width = w;
    t.height = h;
    t.bpp = 4;
    t.slot = depth ? -1 : 0;
    return t;
}

/* a w x h target of `samples` samples per texel (a depth-stencil target when `depth`), with its view */
static struct target make_ms_target(ID3D11Device *device, UINT w, UINT h, DXGI_FORMAT format, UINT samples, int depth)
{
    struct target t = {0};
    D3D11_TEXTURE2D_DESC desc = {0};
    desc.Width = w;
    desc.Height = h;
    desc.MipLevels = desc.ArraySize = 1;
    desc.Format = format;
    desc.SampleDesc.Count = samples;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = depth ? D3D11_BIND_DEPTH_STENCIL : (D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE);
    CHECK(ID3D11Device_CreateTexture2D(device, &desc, NULL, &t.texture), "CreateTexture2D (multisampled)");
    if (depth)
    {
        /* R24G8_TYPELESS with the shader-resource bind flag too: the program reads its samples itself */
        D3D11_DEPTH_STENCIL_VIEW_DESC vdesc;
        memset(&vdesc, 0, sizeof(vdesc));
        vdesc.Format = DXGI_FORMAT_D24_UNORM_S8_UINT;
        vdesc.ViewDimension = D3D11_DSV_DIMENSION_TEXTURE2DMS;
        desc.BindFlags |= D3D11_BIND_SHADER_RESOURCE;
        ID3D11Texture2D_Release(t.texture);
        CHECK(ID3D11Device_CreateTexture2D(device, &desc, NULL, &t.texture), "CreateTexture2D (multisampled depth)");
        CHECK(ID3D11Device_CreateDepthStencilView(device, (ID3D11Resource *)t.texture, &vdesc, &t.dsv), "CreateDepthStencilView");
    }
    else
        CHECK(ID3D11Device_CreateRenderTargetView(device, (ID3D11Resource *)t.texture, NULL, &t.rtv), "CreateRenderTargetView");
    t.width = w;
    t.height = h;
    t.bpp = 4;
    t.slot = depth ? -1 : 0;
    return t;
}

/* an RGBA8 shader-resource texture of `layers` w x h slices (`misc`: D3D11_RESOURCE_MISC_TEXTURECUBE for a cube),
   initialised from `texels` (slice after slice) unless NULL, and its default view */
static ID3D11Texture2D *make_texture(ID3D11Device *device, UINT w, UINT h, UINT layers, UINT misc, D3D11_USAGE usage,
        const UINT *texels, ID3D11ShaderResourceView **view)
{
    D3D11_TEXTURE2D_DESC desc = {0};
    D3D11_SUBRESOURCE_DATA init[6];
    ID3D11Texture2D *texture;
    UINT i;
    desc.Width = w;
    desc.Height = h;
    desc.MipLevels = 1;
    desc.ArraySize = layers;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc.Count = 1;
    desc.Usage = usage;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    desc.CPUAccessFlags = usage == D3D11_USAGE_DYNAMIC ? D3D11_CPU_ACCESS_WRITE : 0;
    desc.MiscFlags = misc;
    for (i = 0; i < layers && i < 6; ++i)
    {
        init[i].pSysMem = texels ? texels + i * w * h : NULL;
        init[i].SysMemPitch = w * 4;
        init[i].SysMemSlicePitch = w * h * 4;
    }
    CHECK(ID3D11Device_CreateTexture2D(device, &desc, texels ? init : NULL, &texture), "CreateTexture2D (sampled)");
    CHECK(ID3D11Device_CreateShaderResourceView(device, (ID3D11Resource *)texture, NULL, view), "CreateShaderResourceView");
    return texture;
}

static int checked; /* whether this frame's readbacks are written */
static FILE *listing;

/* copies `texture` (one mip, one slice, w x h texels of `bpp` bytes) to a staging texture on `ctx` and writes its
   rows, packed, to OUT_DIR/NAME */
static void read_back(ID3D11DeviceContext *ctx, ID3D11Texture2D *texture, const char *name)
{
    D3D11_TEXTURE2D_DESC desc;
    ID3D11Texture2D *staging;
    ID3D11Device *device;
    D3D11_MAPPED_SUBRESOURCE mapped;
    char path[MAX_PATH * 2];
    FILE *f;
    UINT row;
    ID3D11Texture2D_GetDesc(texture, &desc);
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    desc.MiscFlags = 0;
    ID3D11DeviceContext_GetDevice(ctx, &device);
    CHECK(ID3D11Device_CreateTexture2D(device, &desc, NULL, &staging), "CreateTexture2D (staging)");
    ID3D11Device_Release(device);
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)staging, (ID3D11Resource *)texture);
    CHECK(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)staging, 0, D3D11_MAP_READ, 0, &mapped), "Map (staging)");
    snprintf(path, sizeof(path), "%s\\%s", out_dir, name);
    if (!(f = fopen(path, "wb"))) { fprintf(stderr, "cannot write %s\n", path); exit(1); }
    for (row = 0; row < desc.Height; ++row)
        fwrite((BYTE *)mapped.pData + row * mapped.RowPitch, 1, desc.Width * 4, f);
    fclose(f);
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)staging, 0);
    ID3D11Texture2D_Release(staging);
}

/* reads back `t` before (when === 0) or after (1) draw `draw`, and lists the pair once both are written */
static void check_target(ID3D11DeviceContext *ctx, int draw, const char *target_name, struct target *t, int after)
{
    char name[64];
    if (!checked) return;
    snprintf(name, sizeof(name), "d%02d_%s_%s.bin", draw, target_name, after ? "after" : "before");
    read_back(ctx, t->texture, name);
    if (after)
        fprintf(listing, "%d %s %u %u %u d%02d_%s_before.bin d%02d_%s_after.bin %d\n", draw, target_name, t->width,
                t->height, t->bpp, draw, target_name, draw, target_name, t->slot);
}

/* ------------------------------------------------------------------ the program's own reading of multisampled targets
 * A staging copy of a multisampled texture is not allowed, and under Wine a CopyResource of a multisampled colour
 * texture resolves it (every sample of the copy holds the texel's average), so the program reads its multisampled
 * targets' own samples through shader-resource views of them (both have the bind flag): read_ms_target draws each
 * sample into a single-sampled target with ms_read.hlsl and writes the samples as planes one after another, sample
 * 0's first, each plane's rows top first: RGBA8 texels for colour; for the D24S8 target the texel D3D11's layout
 * gives the depth and stencil it read, round(depth * (2^24 - 1)) | stencil << 24. These reads are draws, which the
 * recorder would record, so the checked frame draws the multisampled pass without them and the program draws the
 * same pass again after the frame's last Present (ms_pass: its constants do not change from frame to frame),
 * reading the targets before and after each of its draws. */
struct ms_reader
{
    ID3D11VertexShader *vs;
    ID3D11PixelShader *ps_colour, *ps_depth;
    ID3D11Buffer *cb;
    struct target colour, depth, stencil;
    UINT *texels, *stencils;
};
static struct ms_reader ms_reader;

/* copies the single-sampled 4-bytes-a-texel `texture` through a staging texture into `out`, rows packed */
static void stage_texels(ID3D11DeviceContext *ctx, ID3D11Texture2D *texture, UINT *out)
{
    D3D11_TEXTURE2D_DESC desc;
    ID3D11Texture2D *staging;
    ID3D11Device *device;
    D3D11_MAPPED_SUBRESOURCE mapped;
    UINT row;
    ID3D11Texture2D_GetDesc(texture, &desc);
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    ID3D11DeviceContext_GetDevice(ctx, &device);
    CHECK(ID3D11Device_CreateTexture2D(device, &desc, NULL, &staging), "CreateTexture2D (staging)");
    ID3D11Device_Release(device);
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)staging, (ID3D11Resource *)texture);
    CHECK(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)staging, 0, D3D11_MAP_READ, 0, &mapped), "Map (staging)");
    for (row = 0; row < desc.Height; ++row)
        memcpy(out + row * desc.Width, (BYTE *)mapped.pData + row * mapped.RowPitch, desc.Width * 4);
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)staging, 0);
    ID3D11Texture2D_Release(staging);
}

/* reads every sample of the multisampled target `t` (`samples` samples) before (0) or after (1) draw `draw`, writes
   them to OUT_DIR and lists the pair once both are read; leaves the pipeline state changed */
static void read_ms_target(struct scene *s, ID3D11DeviceContext *ctx, int draw, const char *target_name,
        struct target *t, UINT samples, int after)
{
    struct ms_reader *r = &ms_reader;
    ID3D11ShaderResourceView *views[2] = {NULL, NULL}, *none[3] = {NULL, NULL, NULL};
    D3D11_SHADER_RESOURCE_VIEW_DESC vdesc;
    D3D11_VIEWPORT vp = {0.0f, 0.0f, (float)t->width, (float)t->height, 0.0f, 1.0f};
    char name[64], path[MAX_PATH * 2];
    UINT w = t->width, h = t->height, sample, i;
    int depth = t->slot < 0;
    FILE *f;
    if (!r->vs)
    {
        SIZE_T size;
        void *code = load_file("ms_read.vs.dxbc", &size);
        CHECK(ID3D11Device_CreateVertexShader(s->device, code, size, NULL, &r->vs), "CreateVertexShader");
        free(code);
        code = load_file("ms_read_colour.ps.dxbc", &size);
        CHECK(ID3D11Device_CreatePixelShader(s->device, code, size, NULL, &r->ps_colour), "CreatePixelShader");
        free(code);
        code = load_file("ms_read_depth.ps.dxbc", &size);
        CHECK(ID3D11Device_CreatePixelShader(s->device, code, size, NULL, &r->ps_depth), "CreatePixelShader");
        free(code);
        r->cb = make_buffer(s->device, D3D11_BIND_CONSTANT_BUFFER, 16, NULL, 0);
        r->colour = make_target(s->device, w, h, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
        r->depth = make_target(s->device, w, h, DXGI_FORMAT_R32_FLOAT, 0);
        r->stencil = make_target(s->device, w, h, DXGI_FORMAT_R32_UINT, 0);
        r->texels = malloc(w * h * 4);
        r->stencils = malloc(w * h * 4);
    }
    memset(&vdesc, 0, sizeof(vdesc));
    vdesc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DMS;
    vdesc.Format = depth ? DXGI_FORMAT_R24_UNORM_X8_TYPELESS : DXGI_FORMAT_R8G8B8A8_UNORM;
    CHECK(ID3D11Device_CreateShaderResourceView(s->device, (ID3D11Resource *)t->texture, &vdesc, &views[0]), "CreateShaderResourceView");
    if (depth)
    {
        vdesc.Format = DXGI_FORMAT_X24_TYPELESS_G8_UINT;
        CHECK(ID3D11Device_CreateShaderResourceView(s->device, (ID3D11Resource *)t->texture, &vdesc, &views[1]), "CreateShaderResourceView");
    }
    ID3D11DeviceContext_IASetInputLayout(ctx, NULL);
    ID3D11DeviceContext_IASetPrimitiveTopology(ctx, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);
    ID3D11DeviceContext_VSSetShader(ctx, r->vs, NULL, 0);
    ID3D11DeviceContext_PSSetConstantBuffers(ctx, 0, 1, &r->cb);
    ID3D11DeviceContext_RSSetState(ctx, s->no_cull);
    ID3D11DeviceContext_RSSetViewports(ctx, 1, &vp);
    ID3D11DeviceContext_OMSetDepthStencilState(ctx, NULL, 0);
    ID3D11DeviceContext_OMSetBlendState(ctx, NULL, NULL, 0xffffffff);
    snprintf(name, sizeof(name), "d%02d_%s_%s.bin", draw, target_name, after ? "after" : "before");
    snprintf(path, sizeof(path), "%s\\%s", out_dir, name);
    if (!(f = fopen(path, "wb"))) { fprintf(stderr, "cannot write %s\n", path); exit(1); }
    for (sample = 0; sample < samples; ++sample)
    {
        UINT which[4] = {sample, 0, 0, 0};
        ID3D11DeviceContext_UpdateSubresource(ctx, (ID3D11Resource *)r->cb, 0, NULL, which, 16, 0);
        if (depth)
        {
            ID3D11RenderTargetView *rtvs[2] = {r->depth.rtv, r->stencil.rtv};
            ID3D11DeviceContext_OMSetRenderTargets(ctx, 2, rtvs, NULL);
            ID3D11DeviceContext_PSSetShader(ctx, r->ps_depth, NULL, 0);
            ID3D11DeviceContext_PSSetShaderResources(ctx, 1, 2, views);
            ID3D11DeviceContext_Draw(ctx, 4, 0);
            stage_texels(ctx, r->depth.texture, r->texels);
            stage_texels(ctx, r->stencil.texture, r->stencils);
            for (i = 0; i < w * h; ++i)
            {
                float d;
                double scaled;
                memcpy(&d, &r->texels[i], 4);
                scaled = (double)d * 16777215.0 + 0.5;
                r->texels[i] = (scaled >= 16777215.0 ? 16777215u : (UINT)scaled) | r->stencils[i] << 24;
            }
        }
        else
        {
            ID3D11DeviceContext_OMSetRenderTargets(ctx, 1, &r->colour.rtv, NULL);
            ID3D11DeviceContext_PSSetShader(ctx, r->ps_colour, NULL, 0);
            ID3D11DeviceContext_PSSetShaderResources(ctx, 0, 1, views);
            ID3D11DeviceContext_Draw(ctx, 4, 0);
            stage_texels(ctx, r->colour.texture, r->texels);
        }
        ID3D11DeviceContext_PSSetShaderResources(ctx, 0, 3, none);
        fwrite(r->texels, 4, w * h, f);
    }
    fclose(f);
    ID3D11ShaderResourceView_Release(views[0]);
    if (views[1]) ID3D11ShaderResourceView_Release(views[1]);
    if (after)
        fprintf(listing, "%d %s %u %u %u d%02d_%s_before.bin d%02d_%s_after.bin %d\n", draw, target_name, t->width,
                t->height, t->bpp, draw, target_name, draw, target_name, t->slot);
}

/* draws 10 and 11, the 4x multisampled pass (colour, D24S8 depth-stencil with the stencil tested); when `read`, the
   program's own reading of both targets before and after each draw (read_ms_target) */
static void ms_pass(struct scene *a, ID3D11DeviceContext *ctx, struct target *ms_color, struct target *ms_depth,
        const float clear[4], int read)
{
    static const float constants[2][4] = {{0.0f, 0.0f, 1.0f, 1.0f}, {0.23f, 0.11f, 0.6f, 0.8f}};
    int n;
    ID3D11DeviceContext_ClearRenderTargetView(ctx, ms_color->rtv, clear);
    ID3D11DeviceContext_ClearDepthStencilView(ctx, ms_depth->dsv, D3D11_CLEAR_DEPTH | D3D11_CLEAR_STENCIL, 1.0f, 0);
    for (n = 0; n < 2; ++n)
    {
        if (read)
        {
            read_ms_target(a, ctx, 10 + n, "mscolor", ms_color, 4, 0);
            read_ms_target(a, ctx, 10 + n, "msdepth", ms_depth, 4, 0);
        }
        bind_color(a, ctx, ms_color->rtv, ms_depth->dsv, a->cb_draw, 64.0f, 64.0f);
        ID3D11DeviceContext_OMSetDepthStencilState(ctx, a->stencil_once, 0);
        set_draw_constants(ctx, a->cb_draw, constants[n][0], constants[n][1], constants[n][2], constants[n][3], 1.0f, 1.0f);
        if (n == 0)
            ID3D11DeviceContext_DrawIndexed(ctx, 3, 0, 0);
        else
            ID3D11DeviceContext_Draw(ctx, 3, 0);
        if (read)
        {
            read_ms_target(a, ctx, 10 + n, "mscolor", ms_color, 4, 1);
            read_ms_target(a, ctx, 10 + n, "msdepth", ms_depth, 4, 1);
        }
    }
}

/* copies the buffer `buffer` to a staging buffer on `ctx` and writes its every byte to OUT_DIR/NAME */
static void read_back_buffer(ID3D11DeviceContext *ctx, ID3D11Buffer *buffer, const char *name)
{
    D3D11_BUFFER_DESC desc;
    ID3D11Buffer *staging;
    ID3D11Device *device;
    D3D11_MAPPED_SUBRESOURCE mapped;
    char path[MAX_PATH * 2];
    FILE *f;
    ID3D11Buffer_GetDesc(buffer, &desc);
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    desc.MiscFlags = 0;
    desc.StructureByteStride = 0;
    ID3D11DeviceContext_GetDevice(ctx, &device);
    CHECK(ID3D11Device_CreateBuffer(device, &desc, NULL, &staging), "CreateBuffer (staging)");
    ID3D11Device_Release(device);
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)staging, (ID3D11Resource *)buffer);
    CHECK(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)staging, 0, D3D11_MAP_READ, 0, &mapped), "Map (staging buffer)");
    snprintf(path, sizeof(path), "%s\\%s", out_dir, name);
    if (!(f = fopen(path, "wb"))) { fprintf(stderr, "cannot write %s\n", path); exit(1); }
    fwrite(mapped.pData, 1, desc.ByteWidth, f);
    fclose(f);
    ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)staging, 0);
    ID3D11Buffer_Release(staging);
}

/* writes the hidden counter of the append or counter view `view` (CopyStructureCount into a buffer, read back) to
   OUT_DIR/NAME, 4 bytes */
static void read_back_counter(ID3D11DeviceContext *ctx, ID3D11UnorderedAccessView *view, const char *name)
{
    ID3D11Device *device;
    ID3D11Buffer *counter;
    ID3D11DeviceContext_GetDevice(ctx, &device);
    counter = make_buffer(device, D3D11_BIND_CONSTANT_BUFFER, 16, NULL, 0);
    ID3D11Device_Release(device);
    ID3D11DeviceContext_CopyStructureCount(ctx, counter, 0, view);
    read_back_buffer(ctx, counter, name);
    ID3D11Buffer_Release(counter);
}

/* a buffer of `bytes` bytes initialised from `data`, bound as `bind` with `misc` flags (and `stride` for a
   structured buffer) */
static ID3D11Buffer *make_misc_buffer(ID3D11Device *device, UINT bind, UINT misc, UINT stride, UINT bytes, const void *data)
{
    D3D11_BUFFER_DESC desc = {0};
    D3D11_SUBRESOURCE_DATA init = {data, 0, 0};
    ID3D11Buffer *buffer;
    desc.ByteWidth = bytes;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = bind;
    desc.MiscFlags = misc;
    desc.StructureByteStride = stride;
    CHECK(ID3D11Device_CreateBuffer(device, &desc, data ? &init : NULL, &buffer), "CreateBuffer (misc)");
    return buffer;
}

/* an unordered access view of the buffer `buffer`: raw (format R32_TYPELESS), structured (UNKNOWN, `flags` 0 or
   COUNTER) or typed, over `elements` elements */
static ID3D11UnorderedAccessView *make_buffer_uav(ID3D11Device *device, ID3D11Buffer *buffer, DXGI_FORMAT format, UINT elements,
        UINT flags)
{
    D3D11_UNORDERED_ACCESS_VIEW_DESC desc;
    ID3D11UnorderedAccessView *view;
    memset(&desc, 0, sizeof(desc));
    desc.Format = format;
    desc.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
    desc.Buffer.FirstElement = 0;
    desc.Buffer.NumElements = elements;
    desc.Buffer.Flags = flags;
    CHECK(ID3D11Device_CreateUnorderedAccessView(device, (ID3D11Resource *)buffer, &desc, &view), "CreateUnorderedAccessView (buffer)");
    return view;
}

/* shaders/cs_fill.asm's resources, made on s->device and bound on `ctx` (stage_draws' c) and f)): cb0 (constant,
   0, 0, 0), t0 a Buffer<uint> of 32 R32_UINT (first + step * i), u0 a raw buffer of 32 words (each `fill`), u1 a
   structured buffer of 64 4-byte elements viewed with a counter, its initial count 10 */
struct compute_pass
{
    ID3D11Buffer *raw;
    ID3D11UnorderedAccessView *views[2];
    ID3D11ComputeShader *cs;
};

static struct compute_pass bind_compute_pass(struct scene *s, ID3D11DeviceContext *ctx, UINT first, UINT step,
        UINT fill, UINT constant)
{
    UINT constants[4] = {constant, 0, 0, 0}, values[32], fills[32], initial[2] = {(UINT)-1, 10}, i;
    D3D11_SHADER_RESOURCE_VIEW_DESC vdesc;
    ID3D11ShaderResourceView *srv;
    ID3D11Buffer *input, *structured, *cb;
    struct compute_pass pass;
    SIZE_T size;
    void *code;
    for (i = 0; i < 32; ++i)
    {
        values[i] = first + step * i;
        fills[i] = fill;
    }
    input = make_misc_buffer(s->device, D3D11_BIND_SHADER_RESOURCE, 0, 0, sizeof(values), values);
    pass.raw = make_misc_buffer(s->device, D3D11_BIND_UNORDERED_ACCESS, D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0, sizeof(fills), fills);
    structured = make_misc_buffer(s->device, D3D11_BIND_UNORDERED_ACCESS, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4, 64 * 4, NULL);
    cb = make_buffer(s->device, D3D11_BIND_CONSTANT_BUFFER, sizeof(constants), constants, 0);
    memset(&vdesc, 0, sizeof(vdesc));
    vdesc.Format = DXGI_FORMAT_R32_UINT;
    vdesc.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
    vdesc.Buffer.NumElements = 32;
    CHECK(ID3D11Device_CreateShaderResourceView(s->device, (ID3D11Resource *)input, &vdesc, &srv), "CreateShaderResourceView (buffer)");
    pass.views[0] = make_buffer_uav(s->device, pass.raw, DXGI_FORMAT_R32_TYPELESS, 32, D3D11_BUFFER_UAV_FLAG_RAW);
    pass.views[1] = make_buffer_uav(s->device, structured, DXGI_FORMAT_UNKNOWN, 64, D3D11_BUFFER_UAV_FLAG_COUNTER);
    code = load_file("cs_fill.cs.dxbc", &size);
    CHECK(ID3D11Device_CreateComputeShader(s->device, code, size, NULL, &pass.cs), "CreateComputeShader");
    free(code);
    ID3D11DeviceContext_CSSetShader(ctx, pass.cs, NULL, 0);
    ID3D11DeviceContext_CSSetConstantBuffers(ctx, 0, 1, &cb);
    ID3D11DeviceContext_CSSetShaderResources(ctx, 0, 1, &srv);
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 2, pass.views, initial);
    return pass;
}

/* The TESTAPP_UNRECORDABLE frame's last calls on `ctx`, each read back by the program before and after:
 *   a) the coloured triangle into a 64x64 target of its own through shaders/ps_uav.asm, with three unordered
 *      access views bound with the render target (OMSetRenderTargetsAndUnorderedAccessViews, slots 1 to 3): u1 a
 *      raw buffer of 4 words (5, 0xdeadbeef, 0, 0), u2 a 64x64 R32_UINT texture (every texel 7), u3 a structured
 *      buffer of 16 4-byte elements viewed with a counter, its initial count 7 (Draw(3, 0));
 *      uav_rt_{before,after}.bin, uav_raw_*.bin, uav_tex_*.bin (64x64 texels of 4 bytes), uav_counter_*.bin;
 *   b) DrawInstancedIndirect(args, 0) (args 3, 1, 0, 0) then DrawIndexedInstancedIndirect(args, 16) (args 3, 1, 0,
 *      0, 0), the coloured triangle moved, into another 64x64 target: ind_before.bin, ind_after.bin (after the
 *      first), ind2_after.bin;
 *   c) Dispatch(4, 1, 1) then DispatchIndirect(args, 36) (args 2, 1, 1) of shaders/cs_fill.asm: cb0 (3, 0, 0, 0),
 *      t0 a Buffer<uint> of 32 R32_UINT (100 + 7i), u0 a raw buffer of 32 words (each 0xcdcdcdcd), u1 a structured
 *      buffer of 64 4-byte elements viewed with a counter, its initial count 10; cs_raw_{before,after}.bin,
 *      cs_counter_{before,after}.bin, then cs2_raw_after.bin, cs2_counter_after.bin;
 *   d) stream output (D3D11.3 section 14) through shaders/gs_copy.asm made with a declaration (SV_Position and COLOR,
 *      4 components each, to slot 0, stride 32) into a 1024-byte buffer of 0xab bytes bound at offset 32: draw A
 *      (rasterized stream 0, the coloured triangle into a 64x64 target), draw B through the same binding (appending
 *      where A left off), draw C through a second object made with D3D11_SO_NO_RASTERIZED_STREAM, no pixel program
 *      and no target, bound again at offset 448 (Draw(3, 0) each; the buffer so_before.bin, so_{a,b,c}_after.bin,
 *      the target so_rt_before.bin, so_rt_{a,b}_after.bin; the GS writes floats, never the 0xab pattern's, so what
 *      each draw streamed is where the buffer changed. No statistics query of the program's own wraps these draws:
 *      under Wine two queries of one kind cannot be active at once, and the recorder counts with its own); then the
 *      buffer as vertex buffer 0
 *      (stride 32) through color.hlsl's vertex program and DrawAuto into another 64x64 target: auto_before.bin,
 *      auto_after.bin (Wine 8's DrawAuto draws nothing: its d3d11 leaves it a stub), then the same vertices by
 *      Draw(20, 0) into a third target cleared alike: auto_draw_after.bin;
 *   e) the triangle through ps_uav as in a), into a 4x multisampled render target (made without the
 *      shader-resource bind flag, so the recorder reads its samples with draws of its own, binding targets of its
 *      own, around the program's, which must still run with its views): u1 a raw buffer (5, 0, 0, 0), u2 a 64x64 R32_UINT texture, u3 a counter
 *      view, its initial count 3 (Draw(3, 0)); msuav_raw_{before,after}.bin, msuav_counter_{before,after}.bin;
 *   f) on a deferred context, DrawInstancedIndirect(args, 0) then DrawIndexedInstancedIndirect(args, 16), the
 *      coloured triangle moved, into a 64x64 target cleared on `ctx` before the command list runs there, then
 *      Dispatch(4, 1, 1) and DispatchIndirect(args, 36) of cs_fill as in c) but cb0 (5, 0, 0, 0), t0 (1000 + 3i), u0
 *      32 words of 0x11111111, u1's initial count 10: ind_deferred_before.bin, ind_deferred_after.bin (after both
 *      draws), dcs_raw_before.bin, dcs_raw_after.bin, dcs_counter_after.bin (read before and after the command list
 *      runs). */
static void stage_draws(struct scene *s, ID3D11DeviceContext *ctx)
{
    static const UINT args[12] = {3, 1, 0, 0, 3, 1, 0, 0, 0, 2, 1, 1};
    float clear[4] = {0.1f, 0.2f, 0.3f, 1.0f};
    ID3D11Buffer *arg_buffer = make_misc_buffer(s->device, D3D11_BIND_UNORDERED_ACCESS,
            D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS | D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0, sizeof(args), args);
    SIZE_T size;
    void *code;
    UINT i;
    /* a) */
    {
        static const UINT raw_init[4] = {5, 0xdeadbeefu, 0, 0};
        static UINT texels[64 * 64];
        UINT initial[3] = {(UINT)-1, (UINT)-1, 7};
        ID3D11PixelShader *ps;
        ID3D11Texture2D *tex;
        D3D11_TEXTURE2D_DESC desc = {0};
        D3D11_SUBRESOURCE_DATA init = {texels, 64 * 4, 0};
        ID3D11UnorderedAccessView *views[3], *none[3] = {NULL, NULL, NULL};
        struct target t = make_target(s->device, 64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
        ID3D11Buffer *raw = make_misc_buffer(s->device, D3D11_BIND_UNORDERED_ACCESS, D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0,
                sizeof(raw_init), raw_init);
        ID3D11Buffer *structured = make_misc_buffer(s->device, D3D11_BIND_UNORDERED_ACCESS, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4,
                16 * 4, NULL);
        ID3D11Buffer *cb = make_buffer(s->device, D3D11_BIND_CONSTANT_BUFFER, 32, NULL, 1);
        for (i = 0; i < 64 * 64; ++i)
            texels[i] = 7;
        desc.Width = desc.Height = 64;
        desc.MipLevels = desc.ArraySize = 1;
        desc.Format = DXGI_FORMAT_R32_UINT;
        desc.SampleDesc.Count = 1;
        desc.Usage = D3D11_USAGE_DEFAULT;
        desc.BindFlags = D3D11_BIND_UNORDERED_ACCESS;
        CHECK(ID3D11Device_CreateTexture2D(s->device, &desc, &init, &tex), "CreateTexture2D (UAV texture)");
        views[0] = make_buffer_uav(s->device, raw, DXGI_FORMAT_R32_TYPELESS, 4, D3D11_BUFFER_UAV_FLAG_RAW);
        CHECK(ID3D11Device_CreateUnorderedAccessView(s->device, (ID3D11Resource *)tex, NULL, &views[1]), "CreateUnorderedAccessView");
        views[2] = make_buffer_uav(s->device, structured, DXGI_FORMAT_UNKNOWN, 16, D3D11_BUFFER_UAV_FLAG_COUNTER);
        code = load_file("ps_uav.ps.dxbc", &size);
        CHECK(ID3D11Device_CreatePixelShader(s->device, code, size, NULL, &ps), "CreatePixelShader (UAVs)");
        free(code);
        ID3D11DeviceContext_ClearRenderTargetView(ctx, t.rtv, clear);
        bind_color(s, ctx, t.rtv, NULL, cb, 64.0f, 64.0f);
        set_draw_constants(ctx, cb, 0.05f, 0.1f, 0.8f, 0.9f, 0.7f, 1.0f);
        ID3D11DeviceContext_PSSetShader(ctx, ps, NULL, 0);
        ID3D11DeviceContext_OMSetRenderTargetsAndUnorderedAccessViews(ctx, 1, &t.rtv, NULL, 1, 3, views, initial);
        read_back(ctx, t.texture, "uav_rt_before.bin");
        read_back_buffer(ctx, raw, "uav_raw_before.bin");
        read_back(ctx, tex, "uav_tex_before.bin");
        read_back_counter(ctx, views[2], "uav_counter_before.bin");
        ID3D11DeviceContext_Draw(ctx, 3, 0);
        read_back(ctx, t.texture, "uav_rt_after.bin");
        read_back_buffer(ctx, raw, "uav_raw_after.bin");
        read_back(ctx, tex, "uav_tex_after.bin");
        read_back_counter(ctx, views[2], "uav_counter_after.bin");
        ID3D11DeviceContext_OMSetRenderTargetsAndUnorderedAccessViews(ctx, 1, &t.rtv, NULL, 1, 3, none, NULL);
        ID3D11DeviceContext_PSSetShader(ctx, s->ps_color, NULL, 0);
        ID3D11PixelShader_Release(ps);
    }
    /* b) */
    {
        struct target t = make_target(s->device, 64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
        ID3D11Buffer *cb = make_buffer(s->device, D3D11_BIND_CONSTANT_BUFFER, 32, NULL, 1);
        ID3D11DeviceContext_ClearRenderTargetView(ctx, t.rtv, clear);
        bind_color(s, ctx, t.rtv, NULL, cb, 64.0f, 64.0f);
        set_draw_constants(ctx, cb, -0.2f, -0.1f, 1.0f, 0.6f, 0.4f, 1.0f);
        read_back(ctx, t.texture, "ind_before.bin");
        ID3D11DeviceContext_DrawInstancedIndirect(ctx, arg_buffer, 0);
        read_back(ctx, t.texture, "ind_after.bin");
        set_draw_constants(ctx, cb, 0.3f, 0.2f, 0.4f, 0.7f, 1.0f, 1.0f);
        ID3D11DeviceContext_DrawIndexedInstancedIndirect(ctx, arg_buffer, 16);
        read_back(ctx, t.texture, "ind2_after.bin");
    }
    /* c) */
    {
        ID3D11ShaderResourceView *no_srv = NULL;
        ID3D11UnorderedAccessView *none[2] = {NULL, NULL};
        struct compute_pass pass = bind_compute_pass(s, ctx, 100, 7, 0xcdcdcdcdu, 3);
        read_back_buffer(ctx, pass.raw, "cs_raw_before.bin");
        read_back_counter(ctx, pass.views[1], "cs_counter_before.bin");
        ID3D11DeviceContext_Dispatch(ctx, 4, 1, 1);
        read_back_buffer(ctx, pass.raw, "cs_raw_after.bin");
        read_back_counter(ctx, pass.views[1], "cs_counter_after.bin");
        ID3D11DeviceContext_DispatchIndirect(ctx, arg_buffer, 36);
        read_back_buffer(ctx, pass.raw, "cs2_raw_after.bin");
        read_back_counter(ctx, pass.views[1], "cs2_counter_after.bin");
        ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 2, none, NULL);
        ID3D11DeviceContext_CSSetShaderResources(ctx, 0, 1, &no_srv);
        ID3D11DeviceContext_CSSetShader(ctx, NULL, NULL, 0);
        ID3D11ComputeShader_Release(pass.cs);
    }
    /* d) */
    {
        static const D3D11_SO_DECLARATION_ENTRY decl[] =
        {
            {0, "SV_Position", 0, 0, 4, 0},
            {0, "COLOR", 0, 0, 4, 0},
        };
        static const D3D11_INPUT_ELEMENT_DESC so_elements[] =
        {
            {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
            {"COLOR", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 16, D3D11_INPUT_PER_VERTEX_DATA, 0},
            {"INSTANCE", 0, DXGI_FORMAT_R32G32_FLOAT, 1, 0, D3D11_INPUT_PER_INSTANCE_DATA, 1},
        };
        static BYTE pattern[1024];
        UINT stride = 32, strides[2] = {32, 8}, offset, offsets[2] = {0, 0};
        ID3D11GeometryShader *gs_so, *gs_discard;
        ID3D11InputLayout *layout_so;
        ID3D11Buffer *so_buffer, *none_buffer = NULL, *vbs[2];
        struct target t = make_target(s->device, 64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
        struct target t2 = make_target(s->device, 64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
        struct target t3 = make_target(s->device, 64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
        ID3D11Buffer *cb = make_buffer(s->device, D3D11_BIND_CONSTANT_BUFFER, 32, NULL, 1);
        int n;
        memset(pattern, 0xab, sizeof(pattern));
        so_buffer = make_misc_buffer(s->device, D3D11_BIND_STREAM_OUTPUT | D3D11_BIND_VERTEX_BUFFER, 0, 0, sizeof(pattern), pattern);
        code = load_file("gs_copy.gs.dxbc", &size);
        CHECK(ID3D11Device_CreateGeometryShaderWithStreamOutput(s->device, code, size, decl, 2, &stride, 1, 0, NULL, &gs_so),
                "CreateGeometryShaderWithStreamOutput");
        CHECK(ID3D11Device_CreateGeometryShaderWithStreamOutput(s->device, code, size, decl, 2, &stride, 1,
                D3D11_SO_NO_RASTERIZED_STREAM, NULL, &gs_discard), "CreateGeometryShaderWithStreamOutput (no rasterized stream)");
        free(code);
        code = load_file("color.vs.dxbc", &size);
        CHECK(ID3D11Device_CreateInputLayout(s->device, so_elements, 3, code, size, &layout_so), "CreateInputLayout (stream output)");
        free(code);
        ID3D11DeviceContext_ClearRenderTargetView(ctx, t.rtv, clear);
        ID3D11DeviceContext_ClearRenderTargetView(ctx, t2.rtv, clear);
        ID3D11DeviceContext_ClearRenderTargetView(ctx, t3.rtv, clear);
        bind_color(s, ctx, t.rtv, NULL, cb, 64.0f, 64.0f);
        set_draw_constants(ctx, cb, -0.35f, 0.05f, 0.9f, 0.8f, 0.5f, 1.0f);
        ID3D11DeviceContext_GSSetShader(ctx, gs_so, NULL, 0);
        offset = 32;
        ID3D11DeviceContext_SOSetTargets(ctx, 1, &so_buffer, &offset);
        read_back_buffer(ctx, so_buffer, "so_before.bin");
        read_back(ctx, t.texture, "so_rt_before.bin");
        for (n = 0; n < 3; ++n)
        {
            if (n == 1)
                set_draw_constants(ctx, cb, -0.1f, -0.3f, 0.5f, 1.0f, 0.6f, 1.0f);
            if (n == 2)
            {
                /* rasterizer discard: no rasterized stream, no pixel program, no target; bound again at 448 */
                ID3D11DeviceContext_GSSetShader(ctx, gs_discard, NULL, 0);
                ID3D11DeviceContext_PSSetShader(ctx, NULL, NULL, 0);
                ID3D11DeviceContext_OMSetRenderTargets(ctx, 0, NULL, NULL);
                set_draw_constants(ctx, cb, 0.2f, 0.25f, 1.0f, 0.5f, 0.9f, 1.0f);
                offset = 448;
                ID3D11DeviceContext_SOSetTargets(ctx, 1, &so_buffer, &offset);
            }
            ID3D11DeviceContext_Draw(ctx, 3, 0);
            read_back_buffer(ctx, so_buffer, n == 0 ? "so_a_after.bin" : n == 1 ? "so_b_after.bin" : "so_c_after.bin");
            if (n < 2)
                read_back(ctx, t.texture, n == 0 ? "so_rt_a_after.bin" : "so_rt_b_after.bin");
        }
        /* DrawAuto of what the last draw left: the buffer as vertex buffer 0 through color.hlsl's vertex program */
        ID3D11DeviceContext_SOSetTargets(ctx, 1, &none_buffer, NULL);
        ID3D11DeviceContext_GSSetShader(ctx, NULL, NULL, 0);
        ID3D11DeviceContext_PSSetShader(ctx, s->ps_color, NULL, 0);
        ID3D11DeviceContext_OMSetRenderTargets(ctx, 1, &t2.rtv, NULL);
        set_draw_constants(ctx, cb, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f);
        vbs[0] = so_buffer;
        vbs[1] = s->vb_instance;
        ID3D11DeviceContext_IASetInputLayout(ctx, layout_so);
        ID3D11DeviceContext_IASetVertexBuffers(ctx, 0, 2, vbs, strides, offsets);
        read_back(ctx, t2.texture, "auto_before.bin");
        ID3D11DeviceContext_DrawAuto(ctx);
        read_back(ctx, t2.texture, "auto_after.bin");
        /* the same vertices drawn by Draw: the buffer's filled size after draw C is 448 + 2 triangles x 3 vertices x
           32 bytes = 640, so D3D11's DrawAuto draws 640 / 32 = 20 vertices (8.9); into a third target cleared alike,
           read back after (auto_draw_after.bin): what DrawAuto draws where it is not a stub */
        ID3D11DeviceContext_OMSetRenderTargets(ctx, 1, &t3.rtv, NULL);
        ID3D11DeviceContext_Draw(ctx, 20, 0);
        read_back(ctx, t3.texture, "auto_draw_after.bin");
        ID3D11DeviceContext_IASetInputLayout(ctx, s->layout_color);
        ID3D11GeometryShader_Release(gs_so);
        ID3D11GeometryShader_Release(gs_discard);
    }
    /* e) */
    {
        static const UINT raw_init[4] = {5, 0, 0, 0};
        UINT initial[3] = {(UINT)-1, (UINT)-1, 3};
        struct target ms = {0};
        D3D11_TEXTURE2D_DESC desc = {0};
        ID3D11PixelShader *ps;
        ID3D11Texture2D *tex;
        ID3D11UnorderedAccessView *views[3], *none[3] = {NULL, NULL, NULL};
        ID3D11Buffer *raw = make_misc_buffer(s->device, D3D11_BIND_UNORDERED_ACCESS, D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0,
                sizeof(raw_init), raw_init);
        ID3D11Buffer *structured = make_misc_buffer(s->device, D3D11_BIND_UNORDERED_ACCESS, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4,
                16 * 4, NULL);
        ID3D11Buffer *cb = make_buffer(s->device, D3D11_BIND_CONSTANT_BUFFER, 32, NULL, 1);
        desc.Width = desc.Height = 64;
        desc.MipLevels = desc.ArraySize = 1;
        desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        desc.SampleDesc.Count = 4;
        desc.Usage = D3D11_USAGE_DEFAULT;
        desc.BindFlags = D3D11_BIND_RENDER_TARGET;
        CHECK(ID3D11Device_CreateTexture2D(s->device, &desc, NULL, &ms.texture), "CreateTexture2D (4x, UAV draw)");
        CHECK(ID3D11Device_CreateRenderTargetView(s->device, (ID3D11Resource *)ms.texture, NULL, &ms.rtv), "CreateRenderTargetView");
        desc.Format = DXGI_FORMAT_R32_UINT;
        desc.SampleDesc.Count = 1;
        desc.BindFlags = D3D11_BIND_UNORDERED_ACCESS;
        CHECK(ID3D11Device_CreateTexture2D(s->device, &desc, NULL, &tex), "CreateTexture2D (UAV texture)");
        views[0] = make_buffer_uav(s->device, raw, DXGI_FORMAT_R32_TYPELESS, 4, D3D11_BUFFER_UAV_FLAG_RAW);
        CHECK(ID3D11Device_CreateUnorderedAccessView(s->device, (ID3D11Resource *)tex, NULL, &views[1]), "CreateUnorderedAccessView");
        views[2] = make_buffer_uav(s->device, structured, DXGI_FORMAT_UNKNOWN, 16, D3D11_BUFFER_UAV_FLAG_COUNTER);
        code = load_file("ps_uav.ps.dxbc", &size);
        CHECK(ID3D11Device_CreatePixelShader(s->device, code, size, NULL, &ps), "CreatePixelShader (UAVs)");
        free(code);
        ID3D11DeviceContext_ClearRenderTargetView(ctx, ms.rtv, clear);
        bind_color(s, ctx, ms.rtv, NULL, cb, 64.0f, 64.0f);
        set_draw_constants(ctx, cb, -0.1f, 0.15f, 0.6f, 0.9f, 0.3f, 1.0f);
        ID3D11DeviceContext_PSSetShader(ctx, ps, NULL, 0);
        ID3D11DeviceContext_OMSetRenderTargetsAndUnorderedAccessViews(ctx, 1, &ms.rtv, NULL, 1, 3, views, initial);
        read_back_buffer(ctx, raw, "msuav_raw_before.bin");
        read_back_counter(ctx, views[2], "msuav_counter_before.bin");
        ID3D11DeviceContext_Draw(ctx, 3, 0);
        read_back_buffer(ctx, raw, "msuav_raw_after.bin");
        read_back_counter(ctx, views[2], "msuav_counter_after.bin");
        ID3D11DeviceContext_OMSetRenderTargetsAndUnorderedAccessViews(ctx, 1, &ms.rtv, NULL, 1, 3, none, NULL);
        ID3D11DeviceContext_PSSetShader(ctx, s->ps_color, NULL, 0);
        ID3D11PixelShader_Release(ps);
    }
    /* f) */
    {
        ID3D11DeviceContext *deferred;
        ID3D11CommandList *list;
        ID3D11Buffer *raw;
        ID3D11UnorderedAccessView *counter_view;
        struct target t = make_target(s->device, 64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
        ID3D11Buffer *cb = make_buffer(s->device, D3D11_BIND_CONSTANT_BUFFER, 32, NULL, 1);
        CHECK(ID3D11Device_CreateDeferredContext(s->device, 0, &deferred), "CreateDeferredContext");
        bind_color(s, deferred, t.rtv, NULL, cb, 64.0f, 64.0f);
        set_draw_constants(deferred, cb, 0.1f, -0.2f, 0.3f, 1.0f, 0.5f, 1.0f);
        ID3D11DeviceContext_DrawInstancedIndirect(deferred, arg_buffer, 0);
        set_draw_constants(deferred, cb, -0.3f, 0.25f, 1.0f, 0.3f, 0.8f, 1.0f);
        ID3D11DeviceContext_DrawIndexedInstancedIndirect(deferred, arg_buffer, 16);
        {
            struct compute_pass pass = bind_compute_pass(s, deferred, 1000, 3, 0x11111111u, 5);
            ID3D11DeviceContext_Dispatch(deferred, 4, 1, 1);
            ID3D11DeviceContext_DispatchIndirect(deferred, arg_buffer, 36);
            ID3D11ComputeShader_Release(pass.cs);
            raw = pass.raw;
            counter_view = pass.views[1];
        }
        CHECK(ID3D11DeviceContext_FinishCommandList(deferred, FALSE, &list), "FinishCommandList");
        ID3D11DeviceContext_ClearRenderTargetView(ctx, t.rtv, clear);
        read_back(ctx, t.texture, "ind_deferred_before.bin");
        read_back_buffer(ctx, raw, "dcs_raw_before.bin");
        ID3D11DeviceContext_ExecuteCommandList(ctx, list, FALSE);
        read_back(ctx, t.texture, "ind_deferred_after.bin");
        read_back_buffer(ctx, raw, "dcs_raw_after.bin");
        read_back_counter(ctx, counter_view, "dcs_counter_after.bin");
        ID3D11CommandList_Release(list);
        ID3D11DeviceContext_Release(deferred);
    }
}

/* TESTAPP_UNRECORDABLE's other events, on resources of their own that no draw reads (so nothing read back changes):
   GenerateMips of an 8x8 RGBA8 texture's full chain, CopySubresourceRegion of its mip 1 (box (0, 0, 0)-(4, 4, 1))
   to (2, 2, 0) of another 8x8 texture, and ClearUnorderedAccessViewUint (1, 2, 3, 4) then
   ClearUnorderedAccessViewFloat (0.5, 0, 0, 0) of a 64-byte buffer through R32_UINT and R32_FLOAT views */
static void other_events(ID3D11DeviceContext *ctx)
{
    ID3D11Device *device;
    D3D11_TEXTURE2D_DESC desc = {0};
    D3D11_UNORDERED_ACCESS_VIEW_DESC udesc = {0};
    D3D11_BOX box = {0, 0, 0, 4, 4, 1};
    ID3D11Texture2D *mipped, *copied;
    ID3D11ShaderResourceView *mips_view;
    ID3D11Buffer *buffer;
    ID3D11UnorderedAccessView *uint_view, *float_view;
    static const UINT uint_values[4] = {1, 2, 3, 4};
    static const float float_values[4] = {0.5f, 0.0f, 0.0f, 0.0f};
    ID3D11DeviceContext_GetDevice(ctx, &device);
    desc.Width = desc.Height = 8;
    desc.MipLevels = 0;
    desc.ArraySize = 1;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc.Count = 1;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE;
    desc.MiscFlags = D3D11_RESOURCE_MISC_GENERATE_MIPS;
    CHECK(ID3D11Device_CreateTexture2D(device, &desc, NULL, &mipped), "CreateTexture2D (mips)");
    CHECK(ID3D11Device_CreateShaderResourceView(device, (ID3D11Resource *)mipped, NULL, &mips_view), "CreateShaderResourceView (mips)");
    desc.MipLevels = 1;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    desc.MiscFlags = 0;
    CHECK(ID3D11Device_CreateTexture2D(device, &desc, NULL, &copied), "CreateTexture2D (copied)");
    buffer = make_buffer(device, D3D11_BIND_UNORDERED_ACCESS, 64, NULL, 0);
    udesc.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
    udesc.Buffer.NumElements = 16;
    udesc.Format = DXGI_FORMAT_R32_UINT;
    CHECK(ID3D11Device_CreateUnorderedAccessView(device, (ID3D11Resource *)buffer, &udesc, &uint_view), "CreateUnorderedAccessView (uint)");
    udesc.Format = DXGI_FORMAT_R32_FLOAT;
    CHECK(ID3D11Device_CreateUnorderedAccessView(device, (ID3D11Resource *)buffer, &udesc, &float_view), "CreateUnorderedAccessView (float)");

    ID3D11DeviceContext_GenerateMips(ctx, mips_view);
    ID3D11DeviceContext_CopySubresourceRegion(ctx, (ID3D11Resource *)copied, 0, 2, 2, 0, (ID3D11Resource *)mipped, 1, &box);
    ID3D11DeviceContext_ClearUnorderedAccessViewUint(ctx, uint_view, uint_values);
    ID3D11DeviceContext_ClearUnorderedAccessViewFloat(ctx, float_view, float_values);

    ID3D11UnorderedAccessView_Release(float_view);
    ID3D11UnorderedAccessView_Release(uint_view);
    ID3D11Buffer_Release(buffer);
    ID3D11ShaderResourceView_Release(mips_view);
    ID3D11Texture2D_Release(copied);
    ID3D11Texture2D_Release(mipped);
    ID3D11Device_Release(device);
}

/* TESTAPP_UNRECORDABLE's draws: a quad reading sample 0 of the multisampled colour target through a Texture2DMS view
   (Draw(4, 0): recorded, the texture's every sample read), then the same quad with an unordered access view bound
   too (Draw(3, 0): recorded, the view's texture before and after), and DrawAuto from a vertex buffer no stream output
   filled (Wine draws nothing; the recorder lists it as not recorded: it cannot know the vertex count); then two
   draws into the multisampled targets on a deferred context; then
   a triangle into a 4x colour target made without the shader-resource bind flag (Draw(3, 0)); then the coloured
   triangle through a geometry program into `t` (Draw(3, 0)), read back before and after; then the coloured
   triangle tessellated through hull and domain programs into a target of its own (Draw(3, 0)), read back before
   and after; then stage_draws, then other_events */
static void unrecordable_draws(struct scene *s, ID3D11DeviceContext *ctx, struct target *t, struct target *ms,
        struct target *ms_depth)
{
    ID3D11VertexShader *vs;
    ID3D11PixelShader *ps;
    ID3D11ShaderResourceView *view, *none = NULL;
    ID3D11UnorderedAccessView *uav, *no_uav = NULL;
    ID3D11Texture2D *uav_texture;
    D3D11_TEXTURE2D_DESC desc = {0};
    ID3D11Buffer *cb;
    UINT zero[4] = {0, 0, 0, 0};
    D3D11_VIEWPORT vp = {0.0f, 0.0f, (float)t->width, (float)t->height, 0.0f, 1.0f};
    SIZE_T size;
    void *code;
    code = load_file("ms_read.vs.dxbc", &size);
    CHECK(ID3D11Device_CreateVertexShader(s->device, code, size, NULL, &vs), "CreateVertexShader");
    free(code);
    code = load_file("ms_read_colour.ps.dxbc", &size);
    CHECK(ID3D11Device_CreatePixelShader(s->device, code, size, NULL, &ps), "CreatePixelShader");
    free(code);
    CHECK(ID3D11Device_CreateShaderResourceView(s->device, (ID3D11Resource *)ms->texture, NULL, &view), "CreateShaderResourceView");
    cb = make_buffer(s->device, D3D11_BIND_CONSTANT_BUFFER, 16, zero, 0);
    ID3D11DeviceContext_OMSetRenderTargets(ctx, 1, &t->rtv, NULL);
    ID3D11DeviceContext_IASetInputLayout(ctx, NULL);
    ID3D11DeviceContext_IASetPrimitiveTopology(ctx, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);
    ID3D11DeviceContext_VSSetShader(ctx, vs, NULL, 0);
    ID3D11DeviceContext_PSSetShader(ctx, ps, NULL, 0);
    ID3D11DeviceContext_PSSetConstantBuffers(ctx, 0, 1, &cb);
    ID3D11DeviceContext_PSSetShaderResources(ctx, 0, 1, &view);
    ID3D11DeviceContext_RSSetViewports(ctx, 1, &vp);
    ID3D11DeviceContext_Draw(ctx, 4, 0);
    desc.Width = desc.Height = 4;
    desc.MipLevels = desc.ArraySize = 1;
    desc.Format = DXGI_FORMAT_R32_UINT;
    desc.SampleDesc.Count = 1;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = D3D11_BIND_UNORDERED_ACCESS;
    CHECK(ID3D11Device_CreateTexture2D(s->device, &desc, NULL, &uav_texture), "CreateTexture2D (UAV)");
    CHECK(ID3D11Device_CreateUnorderedAccessView(s->device, (ID3D11Resource *)uav_texture, NULL, &uav), "CreateUnorderedAccessView");
    ID3D11DeviceContext_OMSetRenderTargetsAndUnorderedAccessViews(ctx, 1, &t->rtv, NULL, 1, 1, &uav, NULL);
    ID3D11DeviceContext_Draw(ctx, 3, 0);
    ID3D11DeviceContext_OMSetRenderTargetsAndUnorderedAccessViews(ctx, 1, &t->rtv, NULL, 1, 1, &no_uav, NULL);
    ID3D11DeviceContext_PSSetShaderResources(ctx, 0, 1, &none);
    ID3D11DeviceContext_DrawAuto(ctx);
    /* two draws into the multisampled targets from a deferred context, the second relying on the state the first
       left (the recorder reads the samples with its own draws on that context, restoring its state) */
    {
        ID3D11DeviceContext *deferred;
        ID3D11CommandList *list;
        ID3D11Buffer *cb_deferred = make_buffer(s->device, D3D11_BIND_CONSTANT_BUFFER, 32, NULL, 1);
        CHECK(ID3D11Device_CreateDeferredContext(s->device, 0, &deferred), "CreateDeferredContext");
        bind_color(s, deferred, ms->rtv, ms_depth->dsv, cb_deferred, 64.0f, 64.0f);
        ID3D11DeviceContext_OMSetDepthStencilState(deferred, s->stencil_once, 0);
        set_draw_constants(deferred, cb_deferred, -0.2f, 0.1f, 0.3f, 0.9f, 0.5f, 1.0f);
        ID3D11DeviceContext_DrawIndexed(deferred, 3, 0, 0);
        set_draw_constants(deferred, cb_deferred, 0.25f, -0.15f, 0.9f, 0.4f, 0.2f, 1.0f);
        ID3D11DeviceContext_Draw(deferred, 3, 0);
        CHECK(ID3D11DeviceContext_FinishCommandList(deferred, FALSE, &list), "FinishCommandList");
        ID3D11DeviceContext_ExecuteCommandList(ctx, list, FALSE);
        ID3D11CommandList_Release(list);
        ID3D11DeviceContext_Release(deferred);
    }
    /* a triangle into a 4x colour target made without the shader-resource bind flag, as most programs make theirs:
       the recorder makes such targets readable when they are created, so this draw is recorded with every sample */
    {
        struct target plain = {0};
        D3D11_TEXTURE2D_DESC pdesc = {0};
        float clear[4] = {0.05f, 0.1f, 0.15f, 1.0f};
        ID3D11Buffer *cb_plain = make_buffer(s->device, D3D11_BIND_CONSTANT_BUFFER, 32, NULL, 1);
        pdesc.Width = pdesc.Height = 64;
        pdesc.MipLevels = pdesc.ArraySize = 1;
        pdesc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        pdesc.SampleDesc.Count = 4;
        pdesc.Usage = D3D11_USAGE_DEFAULT;
        pdesc.BindFlags = D3D11_BIND_RENDER_TARGET;
        CHECK(ID3D11Device_CreateTexture2D(s->device, &pdesc, NULL, &plain.texture), "CreateTexture2D (4x, render target only)");
        CHECK(ID3D11Device_CreateRenderTargetView(s->device, (ID3D11Resource *)plain.texture, NULL, &plain.rtv), "CreateRenderTargetView");
        ID3D11DeviceContext_ClearRenderTargetView(ctx, plain.rtv, clear);
        bind_color(s, ctx, plain.rtv, NULL, cb_plain, 64.0f, 64.0f);
        ID3D11DeviceContext_OMSetDepthStencilState(ctx, NULL, 0);
        set_draw_constants(ctx, cb_plain, 0.1f, -0.05f, 0.7f, 0.3f, 0.9f, 1.0f);
        ID3D11DeviceContext_Draw(ctx, 3, 0);
    }
    /* the coloured triangle through a geometry program (shaders/gs_copy.asm: each triangle again, moved right, its
       red and blue swapped) into `t` (Draw(3, 0)), read back before and after (gs_before.bin, gs_after.bin) */
    {
        ID3D11GeometryShader *gs;
        ID3D11Buffer *cb_gs = make_buffer(s->device, D3D11_BIND_CONSTANT_BUFFER, 32, NULL, 1);
        code = load_file("gs_copy.gs.dxbc", &size);
        CHECK(ID3D11Device_CreateGeometryShader(s->device, code, size, NULL, &gs), "CreateGeometryShader");
        free(code);
        bind_color(s, ctx, t->rtv, NULL, cb_gs, (float)t->width, (float)t->height);
        set_draw_constants(ctx, cb_gs, -0.3f, 0.1f, 1.0f, 0.8f, 0.4f, 1.0f);
        ID3D11DeviceContext_GSSetShader(ctx, gs, NULL, 0);
        read_back(ctx, t->texture, "gs_before.bin");
        ID3D11DeviceContext_Draw(ctx, 3, 0);
        read_back(ctx, t->texture, "gs_after.bin");
        ID3D11DeviceContext_GSSetShader(ctx, NULL, NULL, 0);
        ID3D11GeometryShader_Release(gs);
    }
    /* the coloured triangle tessellated (shaders/hs_tri.asm: a 3-control-point patch, every factor 3;
       shaders/ds_tri.asm: each point placed and coloured by its barycentric coordinates, red and blue swapped) into
       a 64x64 target of its own (Draw(3, 0)), read back before and after (tess_before.bin, tess_after.bin) */
    {
        ID3D11HullShader *hs;
        ID3D11DomainShader *ds;
        struct target tess = make_target(s->device, 64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
        float clear[4] = {0.2f, 0.15f, 0.1f, 1.0f};
        ID3D11Buffer *cb_tess = make_buffer(s->device, D3D11_BIND_CONSTANT_BUFFER, 32, NULL, 1);
        code = load_file("hs_tri.hs.dxbc", &size);
        CHECK(ID3D11Device_CreateHullShader(s->device, code, size, NULL, &hs), "CreateHullShader");
        free(code);
        code = load_file("ds_tri.ds.dxbc", &size);
        CHECK(ID3D11Device_CreateDomainShader(s->device, code, size, NULL, &ds), "CreateDomainShader");
        free(code);
        ID3D11DeviceContext_ClearRenderTargetView(ctx, tess.rtv, clear);
        bind_color(s, ctx, tess.rtv, NULL, cb_tess, 64.0f, 64.0f);
        ID3D11DeviceContext_IASetPrimitiveTopology(ctx, D3D11_PRIMITIVE_TOPOLOGY_3_CONTROL_POINT_PATCHLIST);
        set_draw_constants(ctx, cb_tess, 0.15f, -0.1f, 0.9f, 0.7f, 0.3f, 1.0f);
        ID3D11DeviceContext_HSSetShader(ctx, hs, NULL, 0);
        ID3D11DeviceContext_DSSetShader(ctx, ds, NULL, 0);
        read_back(ctx, tess.texture, "tess_before.bin");
        ID3D11DeviceContext_Draw(ctx, 3, 0);
        read_back(ctx, tess.texture, "tess_after.bin");
        ID3D11DeviceContext_HSSetShader(ctx, NULL, NULL, 0);
        ID3D11DeviceContext_DSSetShader(ctx, NULL, NULL, 0);
        ID3D11DeviceContext_IASetPrimitiveTopology(ctx, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        ID3D11HullShader_Release(hs);
        ID3D11DomainShader_Release(ds);
    }
    stage_draws(s, ctx);
    other_events(ctx);
}

/* ------------------------------------------------------------------ windows */
static HWND make_window(const char *title, int w, int h)
{
    WNDCLASSA wc = {0};
    wc.lpfnWndProc = DefWindowProcA;
    wc.hInstance = GetModuleHandleA(NULL);
    wc.lpszClassName = "iridia-testapp";
    RegisterClassA(&wc);
    return CreateWindowA("iridia-testapp", title, WS_OVERLAPPEDWINDOW, 0, 0, w, h, NULL, NULL, wc.hInstance, NULL);
}

static void swap_chain_desc(DXGI_SWAP_CHAIN_DESC *desc, HWND window, UINT w, UINT h)
{
    memset(desc, 0, sizeof(*desc));
    desc->BufferDesc.Width = w;
    desc->BufferDesc.Height = h;
    desc->BufferDesc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc->SampleDesc.Count = 1;
    desc->BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
    desc->BufferCount = 1;
    desc->OutputWindow = window;
    desc->Windowed = TRUE;
    desc->SwapEffect = DXGI_SWAP_EFFECT_DISCARD;
}

static struct target back_buffer_target(ID3D11Device *device, IDXGISwapChain *chain, UINT w, UINT h)
{
    struct target t = {0};
    CHECK(IDXGISwapChain_GetBuffer(chain, 0, &IID_ID3D11Texture2D, (void **)&t.texture), "GetBuffer");
    CHECK(ID3D11Device_CreateRenderTargetView(device, (ID3D11Resource *)t.texture, NULL, &t.rtv), "CreateRenderTargetView");
    t.width = w;
    t.height = h;
    t.bpp = 4;
    return t;
}

/* ------------------------------------------------------------------ bench mode */
static int bench(int draws, int frames, UINT w, UINT h)
{
    static const D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_10_1, D3D_FEATURE_LEVEL_10_0};
    ID3D11Device *device;
    ID3D11DeviceContext *ctx;
    IDXGISwapChain *chain;
    DXGI_SWAP_CHAIN_DESC desc;
    struct scene s;
    struct target rt, depth, resolved = {0};
    LARGE_INTEGER frequency, t0, submitted, presenting, t1;
    HWND window = make_window("iridia bench", 64, 64);
    int frame, i;
    UINT samples = getenv("TESTAPP_BENCH_SAMPLES") ? (UINT)atoi(getenv("TESTAPP_BENCH_SAMPLES")) : 1;
    swap_chain_desc(&desc, window, 64, 64);
    CHECK(D3D11CreateDeviceAndSwapChain(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, levels, 3, D3D11_SDK_VERSION, &desc,
            &chain, &device, NULL, &ctx), "D3D11CreateDeviceAndSwapChain");
    make_scene(&s, device);
    if (samples > 1)
    {
        /* TESTAPP_BENCH_SAMPLES=N: N-sample colour and D24S8 targets, resolved each frame for the 1x1 read */
        rt = make_ms_target(device, w, h, DXGI_FORMAT_R8G8B8A8_UNORM, samples, 0);
        depth = make_ms_target(device, w, h, DXGI_FORMAT_R24G8_TYPELESS, samples, 1);
        resolved = make_target(device, w, h, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
    }
    else
    {
        rt = make_target(device, w, h, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
        depth = make_target(device, w, h, DXGI_FORMAT_D32_FLOAT, 1);
    }
    QueryPerformanceFrequency(&frequency);
    for (frame = 0; frame < frames; ++frame)
    {
        float clear[4] = {0.0f, 0.0f, 0.0f, 1.0f};
        D3D11_MAPPED_SUBRESOURCE mapped;
        ID3D11Texture2D *staging;
        D3D11_TEXTURE2D_DESC sdesc;
        QueryPerformanceCounter(&t0);
        ID3D11DeviceContext_ClearRenderTargetView(ctx, rt.rtv, clear);
        ID3D11DeviceContext_ClearDepthStencilView(ctx, depth.dsv, D3D11_CLEAR_DEPTH, 1.0f, 0);
        bind_color(&s, ctx, rt.rtv, depth.dsv, s.cb_draw, (float)w, (float)h);
        for (i = 0; i < draws; ++i)
        {
            float x = (float)(i % 37) / 37.0f - 0.5f, y = (float)(i % 23) / 23.0f - 0.5f;
            set_draw_constants(ctx, s.cb_draw, x * 0.2f, y * 0.2f, 1.0f, (float)(i & 7) / 7.0f, 0.5f, 1.0f);
            ID3D11DeviceContext_DrawIndexed(ctx, 3, 0, 0);
        }
        QueryPerformanceCounter(&submitted);
        /* wait for the GPU: a 1x1 read of the target (resolved first when multisampled) */
        if (samples > 1)
            ID3D11DeviceContext_ResolveSubresource(ctx, (ID3D11Resource *)resolved.texture, 0, (ID3D11Resource *)rt.texture, 0,
                    DXGI_FORMAT_R8G8B8A8_UNORM);
        ID3D11Texture2D_GetDesc(samples > 1 ? resolved.texture : rt.texture, &sdesc);
        sdesc.Width = sdesc.Height = 1;
        sdesc.Usage = D3D11_USAGE_STAGING;
        sdesc.BindFlags = 0;
        sdesc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
        CHECK(ID3D11Device_CreateTexture2D(device, &sdesc, NULL, &staging), "CreateTexture2D");
        {
            D3D11_BOX box = {0, 0, 0, 1, 1, 1};
            ID3D11DeviceContext_CopySubresourceRegion(ctx, (ID3D11Resource *)staging, 0, 0, 0, 0,
                    (ID3D11Resource *)(samples > 1 ? resolved.texture : rt.texture), 0, &box);
        }
        CHECK(ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)staging, 0, D3D11_MAP_READ, 0, &mapped), "Map");
        ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)staging, 0);
        ID3D11Texture2D_Release(staging);
        QueryPerformanceCounter(&presenting);
        IDXGISwapChain_Present(chain, 0, 0);
        QueryPerformanceCounter(&t1);
        printf("frame %d: %.3f ms, submit %.3f ms, present %.3f ms\n", frame,
               (double)(t1.QuadPart - t0.QuadPart) * 1000.0 / (double)frequency.QuadPart,
               (double)(submitted.QuadPart - t0.QuadPart) * 1000.0 / (double)frequency.QuadPart,
               (double)(t1.QuadPart - presenting.QuadPart) * 1000.0 / (double)frequency.QuadPart);
        fflush(stdout);
    }
    return 0;
}

/* ------------------------------------------------------------------ the test frame */
/* The longest Present so far, in milliseconds. */
static double longest_present_ms;

/* Presents `chain`, timing the call. */
static void timed_present(IDXGISwapChain *chain)
{
    LARGE_INTEGER frequency, t0, t1;
    double ms;
    QueryPerformanceFrequency(&frequency);
    QueryPerformanceCounter(&t0);
    IDXGISwapChain_Present(chain, 0, 0);
    QueryPerformanceCounter(&t1);
    ms = (double)(t1.QuadPart - t0.QuadPart) * 1000.0 / (double)frequency.QuadPart;
    if (ms > longest_present_ms)
        longest_present_ms = ms;
}

int main(int argc, char **argv)
{
    static const D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_10_1, D3D_FEATURE_LEVEL_10_0};
    ID3D11Device *device_a, *device_b, *device_via_get, *device_via_texture;
    ID3D11Device1 *device_a1;
    ID3D11DeviceContext *ctx_out, *ctx_get, *ctx_texture, *ctx_b, *deferred, *deferred1_base;
    ID3D11DeviceContext1 *ctx1, *deferred1;
    IDXGISwapChain *chain_a, *chain_b;
    IDXGIDevice *dxgi_device;
    IDXGIAdapter *adapter;
    IDXGIFactory *factory;
    DXGI_SWAP_CHAIN_DESC desc;
    struct scene a, b;
    struct target rt0, rt1, rt2, depth, back_a, back_b, rt3, rt4, depth24, rt5, ms_color, ms_depth, resolved, rt6;
    ID3D11Texture2D *layers, *cube, *mapped_texture, *updated_texture;
    ID3D11ShaderResourceView *sampled_views[4];
    UINT layer_texels[3 * 16], cube_texels[6 * 16], grey[64];
    int i;
    ID3D11Buffer *cb_deferred, *cb_deferred1;
    ID3DUserDefinedAnnotation *annotation, *deferred_annotation;
    HWND window_a, window_b;
    int frames, checked_frame, frame;
    char path[MAX_PATH * 2];

    if (argc < 3) { fprintf(stderr, "usage: testapp.exe SHADER_DIR OUT_DIR FRAMES CHECKED_FRAME | SHADER_DIR bench DRAWS FRAMES W H\n"); return 2; }
    snprintf(shader_dir, sizeof(shader_dir), "%s", argv[1]);
    if (!strcmp(argv[2], "bench") && argc >= 7)
        return bench(atoi(argv[3]), atoi(argv[4]), (UINT)atoi(argv[5]), (UINT)atoi(argv[6]));
    if (argc < 5) return 2;
    snprintf(out_dir, sizeof(out_dir), "%s", argv[2]);
    frames = atoi(argv[3]);
    checked_frame = atoi(argv[4]);
    snprintf(path, sizeof(path), "%s\\readbacks.txt", out_dir);
    if (!(listing = fopen(path, "w"))) { fprintf(stderr, "cannot write %s\n", path); return 1; }

    window_a = make_window("iridia test A", 64, 64);
    window_b = make_window("iridia test B", 32, 32);

    /* device A and swap chain A in one call */
    swap_chain_desc(&desc, window_a, 64, 64);
    CHECK(D3D11CreateDeviceAndSwapChain(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, levels, 3, D3D11_SDK_VERSION, &desc,
            &chain_a, &device_a, NULL, &ctx_out), "D3D11CreateDeviceAndSwapChain");
    make_scene(&a, device_a);
    ID3D11Device_GetImmediateContext(device_a, &ctx_get);
    CHECK(ID3D11DeviceContext_QueryInterface(ctx_out, &IID_ID3D11DeviceContext1, (void **)&ctx1), "QueryInterface(ID3D11DeviceContext1)");
    ID3D11Texture2D_GetDevice(a.texture, &device_via_texture);
    ID3D11Device_GetImmediateContext(device_via_texture, &ctx_texture);
    CHECK(ID3D11Device_CreateDeferredContext(device_a, 0, &deferred), "CreateDeferredContext");
    CHECK(ID3D11Device_QueryInterface(device_a, &IID_ID3D11Device1, (void **)&device_a1), "QueryInterface(ID3D11Device1)");
    CHECK(ID3D11Device1_CreateDeferredContext1(device_a1, 0, &deferred1), "CreateDeferredContext1");
    CHECK(ID3D11DeviceContext1_QueryInterface(deferred1, &IID_ID3D11DeviceContext, (void **)&deferred1_base), "QueryInterface");
    CHECK(ID3D11DeviceContext_QueryInterface(ctx_out, &IID_ID3DUserDefinedAnnotation, (void **)&annotation),
            "QueryInterface(ID3DUserDefinedAnnotation)");
    CHECK(ID3D11DeviceContext_QueryInterface(deferred, &IID_ID3DUserDefinedAnnotation, (void **)&deferred_annotation),
            "QueryInterface(ID3DUserDefinedAnnotation) of a deferred context");
    cb_deferred = make_buffer(device_a, D3D11_BIND_CONSTANT_BUFFER, 32, NULL, 1);
    cb_deferred1 = make_buffer(device_a, D3D11_BIND_CONSTANT_BUFFER, 32, NULL, 1);
    rt0 = make_target(device_a, 64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
    rt1 = make_target(device_a, 32, 32, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
    rt2 = make_target(device_a, 48, 40, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
    depth = make_target(device_a, 64, 64, DXGI_FORMAT_D32_FLOAT, 1);
    back_a = back_buffer_target(device_a, chain_a, 64, 64);
    (void)device_via_get;
    rt3 = make_target(device_a, 64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
    rt4 = make_target(device_a, 64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
    rt4.slot = 1;
    depth24 = make_target(device_a, 64, 64, DXGI_FORMAT_D24_UNORM_S8_UINT, 1);
    rt5 = make_target(device_a, 64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
    ms_color = make_ms_target(device_a, 64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 4, 0);
    ms_depth = make_ms_target(device_a, 64, 64, DXGI_FORMAT_R24G8_TYPELESS, 4, 1);
    resolved = make_target(device_a, 64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
    rt6 = make_target(device_a, 64, 64, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
    for (i = 0; i < 3 * 16; ++i)
        layer_texels[i] = 0xff000000u | (UINT)((i / 16) * 80 + 10) << 16 | (UINT)((i % 16) / 4 * 60) << 8 | (UINT)(i % 4 * 60);
    for (i = 0; i < 6 * 16; ++i)
        cube_texels[i] = 0xff000000u | (UINT)((i / 16) * 40 + 20) << 16 | (UINT)(i % 4 * 50) << 8 | (UINT)((i % 16) / 4 * 50 + 30);
    for (i = 0; i < 64; ++i)
        grey[i] = 0xff808080u;
    layers = make_texture(device_a, 4, 4, 3, 0, D3D11_USAGE_DEFAULT, layer_texels, &sampled_views[0]);
    cube = make_texture(device_a, 4, 4, 6, D3D11_RESOURCE_MISC_TEXTURECUBE, D3D11_USAGE_DEFAULT, cube_texels, &sampled_views[1]);
    mapped_texture = make_texture(device_a, 4, 4, 1, 0, D3D11_USAGE_DYNAMIC, NULL, &sampled_views[2]);
    updated_texture = make_texture(device_a, 8, 8, 1, 0, D3D11_USAGE_DEFAULT, grey, &sampled_views[3]);
    (void)layers;
    (void)cube;

    /* device B, its swap chain made through the DXGI factory of its adapter */
    CHECK(D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, levels, 3, D3D11_SDK_VERSION, &device_b, NULL, &ctx_b),
            "D3D11CreateDevice");
    make_scene(&b, device_b);
    CHECK(ID3D11Device_QueryInterface(device_b, &IID_IDXGIDevice, (void **)&dxgi_device), "QueryInterface(IDXGIDevice)");
    CHECK(IDXGIDevice_GetAdapter(dxgi_device, &adapter), "GetAdapter");
    CHECK(IDXGIAdapter_GetParent(adapter, &IID_IDXGIFactory, (void **)&factory), "GetParent(IDXGIFactory)");
    swap_chain_desc(&desc, window_b, 32, 32);
    CHECK(IDXGIFactory_CreateSwapChain(factory, (IUnknown *)device_b, &desc, &chain_b), "IDXGIFactory::CreateSwapChain");
    back_b = back_buffer_target(device_b, chain_b, 32, 32);

    for (frame = 0; frame < frames; ++frame)
    {
        float clear0[4] = {0.05f, 0.1f, 0.15f, 1.0f}, clear1[4] = {0.3f, 0.0f, 0.2f, 1.0f};
        float t = (float)frame * 0.01f;
        ID3D11CommandList *list;
        checked = frame == checked_frame;

        /* the program's markers (see the header): a region "Frame" around device A's draws */
        ID3DUserDefinedAnnotation_BeginEvent(annotation, L"Frame");
        ID3D11DeviceContext_ClearRenderTargetView(ctx_out, rt0.rtv, clear0);
        ID3D11DeviceContext_ClearRenderTargetView(ctx_out, rt1.rtv, clear1);
        ID3D11DeviceContext_ClearRenderTargetView(ctx_out, rt2.rtv, clear0);
        ID3D11DeviceContext_ClearDepthStencilView(ctx_out, depth.dsv, D3D11_CLEAR_DEPTH, 1.0f, 0);

        ID3DUserDefinedAnnotation_BeginEvent(annotation, L"Immediate paths");
        /* 0: the out-parameter context, DrawIndexed */
        bind_color(&a, ctx_out, rt0.rtv, depth.dsv, a.cb_draw, 64.0f, 64.0f);
        set_draw_constants(ctx_out, a.cb_draw, t, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f);
        check_target(ctx_out, 0, "rt0", &rt0, 0); check_target(ctx_out, 0, "depth", &depth, 0);
        ID3D11DeviceContext_DrawIndexed(ctx_out, 3, 0, 0);
        check_target(ctx_out, 0, "rt0", &rt0, 1); check_target(ctx_out, 0, "depth", &depth, 1);

        /* 1: GetImmediateContext, Draw, the constant buffer mapped again */
        set_draw_constants(ctx_get, a.cb_draw, 0.13f, -0.22f, 0.5f, 1.0f, 0.25f, 1.0f);
        check_target(ctx_get, 1, "rt0", &rt0, 0); check_target(ctx_get, 1, "depth", &depth, 0);
        ID3D11DeviceContext_Draw(ctx_get, 3, 0);
        check_target(ctx_get, 1, "rt0", &rt0, 1); check_target(ctx_get, 1, "depth", &depth, 1);

        /* 2: ID3D11DeviceContext1, DrawInstanced, a constant buffer window (constants 16 to 31) */
        {
            UINT first = 16, count = 16;
            ID3D11DeviceContext1_VSSetConstantBuffers1(ctx1, 0, 1, &a.cb_window, &first, &count);
            check_target((ID3D11DeviceContext *)ctx1, 2, "rt0", &rt0, 0); check_target((ID3D11DeviceContext *)ctx1, 2, "depth", &depth, 0);
            ID3D11DeviceContext1_DrawInstanced(ctx1, 3, 2, 0, 0);
            check_target((ID3D11DeviceContext *)ctx1, 2, "rt0", &rt0, 1); check_target((ID3D11DeviceContext *)ctx1, 2, "depth", &depth, 1);
        }

        /* 3: a resource's GetDevice, then GetImmediateContext; DrawIndexedInstanced, a textured quad, blended */
        ID3DUserDefinedAnnotation_SetMarker(annotation, L"Textured quad");
        {
            UINT stride = 20, offset = 0;
            ID3D11DeviceContext_IASetInputLayout(ctx_texture, a.layout_textured);
            ID3D11DeviceContext_IASetVertexBuffers(ctx_texture, 0, 1, &a.vb_textured, &stride, &offset);
            ID3D11DeviceContext_VSSetShader(ctx_texture, a.vs_textured, NULL, 0);
            ID3D11DeviceContext_PSSetShader(ctx_texture, a.ps_textured, NULL, 0);
            ID3D11DeviceContext_PSSetShaderResources(ctx_texture, 0, 1, &a.texture_view);
            ID3D11DeviceContext_PSSetSamplers(ctx_texture, 0, 1, &a.point_sampler);
            ID3D11DeviceContext_PSSetConstantBuffers(ctx_texture, 0, 1, &a.cb_tint);
            ID3D11DeviceContext_OMSetBlendState(ctx_texture, a.alpha_blend, NULL, 0xffffffff);
            check_target(ctx_texture, 3, "rt0", &rt0, 0); check_target(ctx_texture, 3, "depth", &depth, 0);
            ID3D11DeviceContext_DrawIndexedInstanced(ctx_texture, 6, 1, 0, 0, 0);
            check_target(ctx_texture, 3, "rt0", &rt0, 1); check_target(ctx_texture, 3, "depth", &depth, 1);
            ID3D11DeviceContext_OMSetBlendState(ctx_texture, NULL, NULL, 0xffffffff);
        }

        ID3DUserDefinedAnnotation_EndEvent(annotation);

        /* 4: a deferred context: Draw into render target 1, its own dynamic constant buffer; a region of its own on
           the deferred context, which runs where its command list does */
        ID3DUserDefinedAnnotation_BeginEvent(annotation, L"Deferred contexts");
        bind_color(&a, deferred, rt1.rtv, NULL, cb_deferred, 32.0f, 32.0f);
        set_draw_constants(deferred, cb_deferred, -0.1f, 0.05f, 0.9f, 0.7f, 1.0f, 1.0f);
        ID3DUserDefinedAnnotation_BeginEvent(deferred_annotation, L"Command list");
        ID3D11DeviceContext_Draw(deferred, 3, 0);
        ID3DUserDefinedAnnotation_EndEvent(deferred_annotation);
        CHECK(ID3D11DeviceContext_FinishCommandList(deferred, FALSE, &list), "FinishCommandList");
        check_target(ctx_out, 4, "rt1", &rt1, 0);
        ID3D11DeviceContext_ExecuteCommandList(ctx_out, list, FALSE);
        check_target(ctx_out, 4, "rt1", &rt1, 1);
        ID3D11CommandList_Release(list);

        /* 5: a deferred context made by CreateDeferredContext1: DrawIndexed into render target 2, a scissor */
        {
            D3D11_RECT scissor = {5, 3, 40, 33};
            D3D11_RASTERIZER_DESC rdesc = {0};
            ID3D11RasterizerState *scissored;
            rdesc.FillMode = D3D11_FILL_SOLID;
            rdesc.CullMode = D3D11_CULL_NONE;
            rdesc.DepthClipEnable = TRUE;
            rdesc.ScissorEnable = TRUE;
            CHECK(ID3D11Device_CreateRasterizerState(device_a, &rdesc, &scissored), "CreateRasterizerState");
            bind_color(&a, deferred1_base, rt2.rtv, NULL, cb_deferred1, 48.0f, 40.0f);
            ID3D11DeviceContext_RSSetState(deferred1_base, scissored);
            ID3D11DeviceContext_RSSetScissorRects(deferred1_base, 1, &scissor);
            set_draw_constants(deferred1_base, cb_deferred1, 0.05f, 0.1f, 1.0f, 0.6f, 0.2f, 1.0f);
            ID3D11DeviceContext_DrawIndexed(deferred1_base, 3, 0, 0);
            CHECK(ID3D11DeviceContext_FinishCommandList(deferred1_base, FALSE, &list), "FinishCommandList");
            check_target(ctx_out, 5, "rt2", &rt2, 0);
            ID3D11DeviceContext_ExecuteCommandList(ctx_out, list, FALSE);
            check_target(ctx_out, 5, "rt2", &rt2, 1);
            ID3D11CommandList_Release(list);
            ID3D11RasterizerState_Release(scissored);
        }
        ID3DUserDefinedAnnotation_EndEvent(annotation);

        /* 6: the back buffer of swap chain A: a quad sampling render target 0 through a linear sampler */
        {
            D3D11_VIEWPORT vp = {0.0f, 0.0f, 64.0f, 64.0f, 0.0f, 1.0f};
            UINT stride = 20, offset = 0;
            ID3D11DeviceContext_OMSetRenderTargets(ctx_out, 1, &back_a.rtv, NULL);
            ID3D11DeviceContext_RSSetViewports(ctx_out, 1, &vp);
            ID3D11DeviceContext_IASetInputLayout(ctx_out, a.layout_textured);
            /* ExecuteCommandList(..., FALSE) left the immediate context in its default state: bind everything */
            ID3D11DeviceContext_IASetVertexBuffers(ctx_out, 0, 1, &a.vb_textured, &stride, &offset);
            ID3D11DeviceContext_IASetIndexBuffer(ctx_out, a.ib, DXGI_FORMAT_R16_UINT, 0);
            ID3D11DeviceContext_IASetPrimitiveTopology(ctx_out, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
            ID3D11DeviceContext_RSSetState(ctx_out, a.no_cull);
            ID3D11DeviceContext_PSSetConstantBuffers(ctx_out, 0, 1, &a.cb_tint);
            ID3D11DeviceContext_VSSetShader(ctx_out, a.vs_textured, NULL, 0);
            ID3D11DeviceContext_PSSetShader(ctx_out, a.ps_textured, NULL, 0);
            ID3D11DeviceContext_PSSetShaderResources(ctx_out, 0, 1, &rt0.srv);
            ID3D11DeviceContext_PSSetSamplers(ctx_out, 0, 1, &a.linear_sampler);
            ID3D11DeviceContext_OMSetDepthStencilState(ctx_out, NULL, 0);
            check_target(ctx_out, 6, "back", &back_a, 0);
            ID3D11DeviceContext_DrawIndexed(ctx_out, 6, 0, 0);
            check_target(ctx_out, 6, "back", &back_a, 1);
            {
                ID3D11ShaderResourceView *none = NULL;
                ID3D11DeviceContext_PSSetShaderResources(ctx_out, 0, 1, &none);
            }
        }

        /* 7, 8: two render targets at once and a D24S8 depth-stencil target, the stencil cleared to 0 and tested */
        {
            ID3D11RenderTargetView *rtvs[2] = {rt3.rtv, rt4.rtv};
            ID3DUserDefinedAnnotation_BeginEvent(annotation, L"Two targets");
            ID3D11DeviceContext_ClearRenderTargetView(ctx_out, rt3.rtv, clear0);
            ID3D11DeviceContext_ClearRenderTargetView(ctx_out, rt4.rtv, clear1);
            ID3D11DeviceContext_ClearDepthStencilView(ctx_out, depth24.dsv, D3D11_CLEAR_DEPTH | D3D11_CLEAR_STENCIL, 1.0f, 0);
            bind_color(&a, ctx_out, rt3.rtv, depth24.dsv, a.cb_draw, 64.0f, 64.0f);
            ID3D11DeviceContext_OMSetRenderTargets(ctx_out, 2, rtvs, depth24.dsv);
            ID3D11DeviceContext_OMSetDepthStencilState(ctx_out, a.stencil_once, 0);
            ID3D11DeviceContext_PSSetShader(ctx_out, a.ps_mrt, NULL, 0);
            set_draw_constants(ctx_out, a.cb_draw, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f, 1.0f);
            check_target(ctx_out, 7, "mrt0", &rt3, 0); check_target(ctx_out, 7, "mrt1", &rt4, 0); check_target(ctx_out, 7, "depth24", &depth24, 0);
            ID3D11DeviceContext_DrawIndexed(ctx_out, 3, 0, 0);
            check_target(ctx_out, 7, "mrt0", &rt3, 1); check_target(ctx_out, 7, "mrt1", &rt4, 1); check_target(ctx_out, 7, "depth24", &depth24, 1);
            set_draw_constants(ctx_out, a.cb_draw, 0.23f, 0.11f, 0.6f, 0.8f, 1.0f, 1.0f);
            check_target(ctx_out, 8, "mrt0", &rt3, 0); check_target(ctx_out, 8, "mrt1", &rt4, 0); check_target(ctx_out, 8, "depth24", &depth24, 0);
            ID3D11DeviceContext_Draw(ctx_out, 3, 0);
            check_target(ctx_out, 8, "mrt0", &rt3, 1); check_target(ctx_out, 8, "mrt1", &rt4, 1); check_target(ctx_out, 8, "depth24", &depth24, 1);
            ID3DUserDefinedAnnotation_EndEvent(annotation);
        }

        /* 9: a quad sampling a texture array, a cube map, a dynamic texture mapped now and a texture updated now */
        {
            D3D11_MAPPED_SUBRESOURCE mapped;
            D3D11_BOX box = {2, 2, 0, 6, 6, 1};
            UINT texels[16];
            UINT stride = 20, offset = 0, x, y;
            ID3D11ShaderResourceView *none[4] = {NULL, NULL, NULL, NULL};
            CHECK(ID3D11DeviceContext_Map(ctx_out, (ID3D11Resource *)mapped_texture, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped), "Map (texture)");
            for (y = 0; y < 4; ++y)
                for (x = 0; x < 4; ++x)
                    ((UINT *)((BYTE *)mapped.pData + y * mapped.RowPitch))[x] =
                        0xff000000u | (UINT)(frame * 30 % 256) << 16 | (x * 64) << 8 | (255 - y * 64);
            ID3D11DeviceContext_Unmap(ctx_out, (ID3D11Resource *)mapped_texture, 0);
            for (y = 0; y < 4; ++y)
                for (x = 0; x < 4; ++x)
                    texels[y * 4 + x] = 0xff000000u | (y * 40) << 8 | (UINT)((frame * 50 + (int)x * 40) % 256);
            ID3D11DeviceContext_UpdateSubresource(ctx_out, (ID3D11Resource *)updated_texture, 0, &box, texels, 16, 0);
            if (checked)
            {
                read_back(ctx_out, mapped_texture, "mapped.bin");
                read_back(ctx_out, updated_texture, "updated.bin");
            }
            ID3D11DeviceContext_ClearRenderTargetView(ctx_out, rt5.rtv, clear1);
            ID3D11DeviceContext_OMSetRenderTargets(ctx_out, 1, &rt5.rtv, NULL);
            ID3D11DeviceContext_OMSetDepthStencilState(ctx_out, NULL, 0);
            ID3D11DeviceContext_IASetInputLayout(ctx_out, a.layout_textured);
            ID3D11DeviceContext_IASetVertexBuffers(ctx_out, 0, 1, &a.vb_textured, &stride, &offset);
            ID3D11DeviceContext_VSSetShader(ctx_out, a.vs_textured, NULL, 0);
            ID3D11DeviceContext_PSSetShader(ctx_out, a.ps_sampled, NULL, 0);
            ID3D11DeviceContext_PSSetShaderResources(ctx_out, 0, 4, sampled_views);
            ID3D11DeviceContext_PSSetSamplers(ctx_out, 0, 1, &a.point_sampler);
            check_target(ctx_out, 9, "rt5", &rt5, 0);
            ID3D11DeviceContext_DrawIndexed(ctx_out, 6, 0, 0);
            check_target(ctx_out, 9, "rt5", &rt5, 1);
            ID3D11DeviceContext_PSSetShaderResources(ctx_out, 0, 4, none);
        }

        /* with TESTAPP_UNRECORDABLE set, in the checked frame: two draws the recorder cannot record, into rt5 */
        if (checked && getenv("TESTAPP_UNRECORDABLE"))
            unrecordable_draws(&a, ctx_out, &rt5, &ms_color, &ms_depth);

        /* 10, 11: a 4x multisampled pass (colour, D24S8 depth-stencil with the stencil tested), resolved; the
           program reads its samples after the frame (ms_pass) */
        ms_pass(&a, ctx_out, &ms_color, &ms_depth, clear0, 0);
        ID3D11DeviceContext_ResolveSubresource(ctx_out, (ID3D11Resource *)resolved.texture, 0, (ID3D11Resource *)ms_color.texture, 0,
                DXGI_FORMAT_R8G8B8A8_UNORM);
        if (checked)
            read_back(ctx_out, resolved.texture, "resolved.bin");

        /* 12: a quad sampling the resolved target */
        {
            UINT stride = 20, offset = 0;
            ID3D11ShaderResourceView *none = NULL;
            ID3D11DeviceContext_ClearRenderTargetView(ctx_out, rt6.rtv, clear1);
            ID3D11DeviceContext_OMSetRenderTargets(ctx_out, 1, &rt6.rtv, NULL);
            ID3D11DeviceContext_OMSetDepthStencilState(ctx_out, NULL, 0);
            ID3D11DeviceContext_IASetInputLayout(ctx_out, a.layout_textured);
            ID3D11DeviceContext_IASetVertexBuffers(ctx_out, 0, 1, &a.vb_textured, &stride, &offset);
            ID3D11DeviceContext_VSSetShader(ctx_out, a.vs_textured, NULL, 0);
            ID3D11DeviceContext_PSSetShader(ctx_out, a.ps_textured, NULL, 0);
            ID3D11DeviceContext_PSSetConstantBuffers(ctx_out, 0, 1, &a.cb_tint);
            ID3D11DeviceContext_PSSetShaderResources(ctx_out, 0, 1, &resolved.srv);
            ID3D11DeviceContext_PSSetSamplers(ctx_out, 0, 1, &a.linear_sampler);
            check_target(ctx_out, 12, "rt6", &rt6, 0);
            ID3D11DeviceContext_DrawIndexed(ctx_out, 6, 0, 0);
            check_target(ctx_out, 12, "rt6", &rt6, 1);
            ID3D11DeviceContext_PSSetShaderResources(ctx_out, 0, 1, &none);
        }
        ID3DUserDefinedAnnotation_EndEvent(annotation);
        timed_present(chain_a);

        /* 13: device B: a triangle into B's back buffer, inside D3D9-era markers (see the header) */
        {
            float clear_b[4] = {0.2f, 0.2f, 0.2f, 1.0f};
            FARPROC found = GetProcAddress(GetModuleHandleW(L"d3d9.dll"), "D3DPERF_SetMarker");
            void (WINAPI *set_marker)(D3DCOLOR, LPCWSTR) = NULL;
            memcpy(&set_marker, &found, sizeof(set_marker));
            if (!set_marker)
            {
                fprintf(stderr, "testapp: d3d9.dll has no D3DPERF_SetMarker\n");
                exit(1);
            }
            D3DPERF_BeginEvent(0xff00ff00, L"Device B");
            ID3D11DeviceContext_ClearRenderTargetView(ctx_b, back_b.rtv, clear_b);
            bind_color(&b, ctx_b, back_b.rtv, NULL, b.cb_draw, 32.0f, 32.0f);
            set_draw_constants(ctx_b, b.cb_draw, 0.0f, -t, 1.0f, 0.5f, 0.5f, 1.0f);
            check_target(ctx_b, 13, "back", &back_b, 0);
            set_marker(0xffffffff, L"Device B triangle");
            ID3D11DeviceContext_Draw(ctx_b, 3, 0);
            check_target(ctx_b, 13, "back", &back_b, 1);
            D3DPERF_EndEvent();
        }
        timed_present(chain_b);
        if (checked)
            ms_pass(&a, ctx_out, &ms_color, &ms_depth, clear0, 1);
    }
    fclose(listing);
    printf("testapp: longest Present %.1f ms\n", longest_present_ms);
    ID3DUserDefinedAnnotation_Release(annotation);
    ID3DUserDefinedAnnotation_Release(deferred_annotation);
    IDXGISwapChain_Release(chain_a);
    IDXGISwapChain_Release(chain_b);
    printf("testapp: %d frames drawn\n", frames);
    fflush(stdout);
    return 0;
}
