// The test program's coloured triangles: a per-vertex position and colour, a per-instance offset, and a constant
// buffer moving and tinting each draw (the program maps it anew before each draw).
cbuffer Draw : register(b0)
{
    float4 offset; // xy added to every position
    float4 tint;   // multiplies the colour
};

struct VSIn
{
    float3 pos : POSITION;
    float4 color : COLOR;
    float2 instance : INSTANCE; // slot 1, per instance
};

struct VSOut
{
    float4 pos : SV_Position;
    float4 color : COLOR;
};

VSOut vs_main(VSIn v)
{
    VSOut o;
    o.pos = float4(v.pos.xy + offset.xy + v.instance, v.pos.z, 1.0);
    o.color = v.color * tint;
    return o;
}

float4 ps_main(VSOut i) : SV_Target
{
    return i.color;
}
