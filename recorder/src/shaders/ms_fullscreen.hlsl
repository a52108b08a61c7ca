// The recorder's sample reader, vertex program: one triangle covering the viewport (vertices 0, 1, 2 at clip
// (-1, 1), (3, 1), (-1, -3)), no vertex buffer, no input layout.
float4 vs_main(uint id : SV_VertexID) : SV_Position
{
    float2 p = float2((id & 1) * 4.0, (id >> 1) * 4.0);
    return float4(p.x - 1.0, 1.0 - p.y, 0.0, 1.0);
}
