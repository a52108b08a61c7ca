// P1/P1b pixel program: a textured, lit surface. Two bilinear samples of one texture (albedo, and a detail layer at
// four times the frequency), normalize, a diffuse dot and a Blinn-Phong specular pow.
Texture2D albedo : register(t0);
SamplerState linear_wrap : register(s0);
cbuffer Light : register(b0) { float4 light_dir; float4 light_color; float4 ambient; };
float4 main(float4 pos : SV_Position, float3 normal : NORMAL, float2 uv : TEXCOORD0, float3 view : TEXCOORD1) : SV_Target {
  float4 base = albedo.Sample(linear_wrap, uv);
  float4 detail = albedo.Sample(linear_wrap, uv * 4.0 + 0.37);
  float3 n = normalize(normal + (detail.xyz - 0.5) * 0.3);
  float3 l = normalize(light_dir.xyz);
  float3 v = normalize(view);
  float3 h = normalize(l + v);
  float diffuse = saturate(dot(n, l));
  float specular = pow(saturate(dot(n, h)), 24.0);
  float3 lit = base.rgb * (ambient.rgb + light_color.rgb * diffuse) + light_color.rgb * specular * detail.a;
  return float4(lit, base.a);
}
