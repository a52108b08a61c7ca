// The recorder's sample reader for UINT targets: as ms_load_float.hlsl, the samples' integers unconverted.
Texture2DMS<uint4> samples : register(t0);

uint4 ps_main(float4 pos : SV_Position) : SV_Target
{
    uint width, height, count;
    samples.GetDimensions(width, height, count);
    uint y = (uint)pos.y;
    return samples.Load(int2((int)pos.x, (int)(y % height)), (int)(y / height));
}
