// The recorder's sample reader for float, UNORM and SNORM targets: the target is the multisampled texture's
// samples as planes stacked vertically, sample 0's on top (N times as tall); pixel (x, s * height + y) receives
// sample s of texel (x, y), loaded unfiltered.
Texture2DMS<float4> samples : register(t0);

float4 ps_main(float4 pos : SV_Position) : SV_Target
{
    uint width, height, count;
    samples.GetDimensions(width, height, count);
    uint y = (uint)pos.y;
    return samples.Load(int2((int)pos.x, (int)(y % height)), (int)(y / height));
}
