// The recorder's sample reader for SINT targets: as ms_load_float.hlsl, the samples' integers unconverted.
Texture2DMS<int4> samples : register(t0);

int4 ps_main(float4 pos : SV_Position) : SV_Target
{
    uint width, height, count;
    samples.GetDimensions(width, height, count);
    uint y = (uint)pos.y;
    return samples.Load(int2((int)pos.x, (int)(y % height)), (int)(y / height));
}
