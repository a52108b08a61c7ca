// The recorder's sample reader for D24_UNORM_S8_UINT depth-stencil targets, into an R32_UINT target of stacked
// planes as ms_load_float.hlsl: the depth through an R24_UNORM_X8_TYPELESS view (t0), the stencil through an
// X24_TYPELESS_G8_UINT view (t1, component y), packed as D3D11 lays the format out: depth * (2^24 - 1) rounded in
// bits 0-23, stencil in bits 24-31.
//
// The 24-bit value k is found exactly: a float32 product d * (2^24 - 1) rounds (its ULP is 0.5 or 1 for depths
// from 0.25 up), so it is computed as m - d with m = d * 2^24 (exact: a power of two), m's whole part w (exact) and
// (m - w) - d, which is exact too (a difference below 1 of multiples of d's ULP); k = w + round((m - w) - d), the
// rounding unambiguous because d is within half its ULP of k / (2^24 - 1).
Texture2DMS<float> depth : register(t0);
Texture2DMS<uint2> stencil : register(t1);

uint ps_main(float4 pos : SV_Position) : SV_Target
{
    uint width, height, count;
    depth.GetDimensions(width, height, count);
    uint y = (uint)pos.y;
    int2 texel = int2((int)pos.x, (int)(y % height));
    int s = (int)(y / height);
    precise float d = depth.Load(texel, s);
    precise float m = d * 16777216.0;
    precise float whole = floor(m);
    precise float rest = (m - whole) - d;
    int k = (int)whole + (int)round(rest);
    return (uint)clamp(k, 0, 16777215) | (stencil.Load(texel, s).y << 24);
}
