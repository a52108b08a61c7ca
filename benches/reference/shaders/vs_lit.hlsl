// P1/P1b vertex program: clip-space position from a column-major matrix, the normal and texture coordinate passed on.
cbuffer Transform : register(b0) { float4x4 mvp; };
struct VsIn { float3 pos : POSITION; float3 normal : NORMAL; float2 uv : TEXCOORD0; };
struct VsOut { float4 pos : SV_Position; float3 normal : NORMAL; float2 uv : TEXCOORD0; float3 view : TEXCOORD1; };
VsOut main(VsIn i) {
  VsOut o;
  o.pos = mul(mvp, float4(i.pos, 1));
  o.normal = i.normal;
  o.uv = i.uv;
  o.view = float3(0, 0, 1) - i.pos * 0.25;
  return o;
}
