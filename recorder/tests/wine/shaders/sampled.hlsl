// The test program's draw sampling four kinds of texture at once (textured.hlsl's vertex program): slice 1 of a
// Texture2DArray, the +X and +Z faces of a cube map, a dynamic texture the program maps each frame and a texture it
// updates with UpdateSubresource each frame; a quarter of each.
Texture2DArray layers : register(t0);
TextureCube cube : register(t1);
Texture2D mapped : register(t2);
Texture2D updated : register(t3);
SamplerState smp : register(s0);

struct VSOut
{
    float4 pos : SV_Position;
    float2 uv : TEXCOORD;
};

float4 ps_main(VSOut i) : SV_Target
{
    float2 c = i.uv * 2.0 - 1.0;
    float4 layer = layers.Sample(smp, float3(i.uv, 1.0));
    float4 face = i.uv.x < 0.5 ? cube.Sample(smp, float3(1.0, -c.y * 0.9, -c.x * 0.9))
                               : cube.Sample(smp, float3(c.x * 0.9, -c.y * 0.9, 1.0));
    return 0.25 * (layer + face + mapped.Sample(smp, i.uv) + updated.Sample(smp, i.uv));
}
