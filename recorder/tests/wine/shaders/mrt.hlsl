// The test program's two-target draws: the coloured triangle of color.hlsl (its vertex program) written to render
// target 0 as is and to render target 1 inverted, half transparent.
struct VSOut
{
    float4 pos : SV_Position;
    float4 color : COLOR;
};

struct PSOut
{
    float4 first : SV_Target0;
    float4 second : SV_Target1;
};

PSOut ps_main(VSOut i)
{
    PSOut o;
    o.first = i.color;
    o.second = float4(1.0 - i.color.rgb, 0.5);
    return o;
}
