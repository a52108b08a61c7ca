// The recorder's sample reader for D24_UNORM_S8_UINT depth-stencil targets, into an R32_UINT target of stacked
// planes as ms_load_float.hlsl: the depth through an R24_UNORM_X8_TYPELESS view (t0), the stencil through an
// X24_TYPELESS_G8_UINT view (t1, component y), packed as D3D11 lays the format out: depth * (2^24 - 1) rounded in
// bits 0-23, stencil in bits 24-31.
Texture2DMS<float> depth : register(t0);
Texture2DMS<uint2> stencil : register(t1);

uint ps_main(float4 pos : SV_Position) : SV_Target
{
    uint width, height, count;
    depth.GetDimensions(width, height, count);
    uint y = (uint)pos.y;
    int2 texel = int2((int)pos.x, (int)(y % height));
    int s = (int)(y / height);
    uint d = (uint)(depth.Load(texel, s) * 16777215.0 + 0.5);
    return min(d, 16777215u) | (stencil.Load(texel, s).y << 24);
}
