// The test program's own reader of its multisampled targets' samples (run after the recorded frame, on copies made
// in it): a quad covering the viewport, and per sample (the constant buffer's index) a pixel program loading that
// sample of each texel: the colour target's (ps_colour), or the depth (through an R24_UNORM_X8_TYPELESS view) and
// stencil (X24_TYPELESS_G8_UINT, component y) of the D24S8 target into an R32_FLOAT and an R32_UINT target
// (ps_depth).
cbuffer Which : register(b0)
{
    uint sample_index;
};

Texture2DMS<float4> colour : register(t0);
Texture2DMS<float> depth : register(t1);
Texture2DMS<uint2> stencil : register(t2);

float4 vs_main(uint id : SV_VertexID) : SV_Position
{
    // a triangle strip: (-1, 1), (1, 1), (-1, -1), (1, -1)
    return float4((id & 1) ? 1.0 : -1.0, (id & 2) ? -1.0 : 1.0, 0.0, 1.0);
}

float4 ps_colour(float4 pos : SV_Position) : SV_Target
{
    return colour.Load(int2(pos.xy), sample_index);
}

struct DepthOut
{
    float depth : SV_Target0;
    uint stencil : SV_Target1;
};

DepthOut ps_depth(float4 pos : SV_Position)
{
    DepthOut o;
    o.depth = depth.Load(int2(pos.xy), sample_index);
    o.stencil = stencil.Load(int2(pos.xy), sample_index).y;
    return o;
}
