// The test program's textured quads: a texture read through a sampler, tinted by a pixel-stage constant buffer.
Texture2D tex : register(t0);
SamplerState smp : register(s0);

cbuffer Tint : register(b0)
{
    float4 tint;
};

struct VSIn
{
    float3 pos : POSITION;
    float2 uv : TEXCOORD;
};

struct VSOut
{
    float4 pos : SV_Position;
    float2 uv : TEXCOORD;
};

VSOut vs_main(VSIn v)
{
    VSOut o;
    o.pos = float4(v.pos, 1.0);
    o.uv = v.uv;
    return o;
}

float4 ps_main(VSOut i) : SV_Target
{
    return tex.Sample(smp, i.uv) * tint;
}
