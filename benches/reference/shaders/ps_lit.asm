ps_5_0
dcl_constantBuffer cb0[3], immediateIndexed
dcl_sampler s0
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xyz
dcl_input_ps linear v2.xy
dcl_input_ps linear v3.xyz
dcl_output o0.xyzw
dcl_temps 9
mov r0.xyz, v3.xyzx
mov r1.xy, v2.xyxx
mov r2.xyz, v1.xyzx
mov r3.xyzw, cb0[2].xyzw
mov r4.xyzw, cb0[1].xyzw
mov r5.xyzw, cb0[0].xyzw
sample r6.xyzw, r1.xyxx, t0.xyzw, s0
mov r0.w, r6.x
mov r7.x, r0.w
mov r0.w, r6.xxxy
mov r7.y, r0.w
mov r0.w, r6.xxxz
mov r7.z, r0.w
mov r0.w, r6.xxxw
mov r7.w, r0.w
mul r1.xy, r1.xyxx, l(4.00000000e+00, 4.00000000e+00, 0.00000000e+00, 0.00000000e+00)
add r1.xy, r1.xyxx, l(3.70000005e-01, 3.70000005e-01, 0.00000000e+00, 0.00000000e+00)
sample r1.xyzw, r1.xyxx, t0.xyzw, s0
mov r0.w, r1.x
mov r8.x, r0.w
mov r0.w, r1.xxxy
mov r8.y, r0.w
mov r0.w, r1.xxxz
mov r8.z, r0.w
mov r0.w, r1.xxxw
mov r8.w, r0.w
mov r8.xyzw, r8.xyzw
mov r8.xyz, r8.xyzx
add r8.xyz, r8.xyzx, l(-5.00000000e-01, -5.00000000e-01, -5.00000000e-01, 0.00000000e+00)
mul r8.xyz, r8.xyzx, l(3.00000012e-01, 3.00000012e-01, 3.00000012e-01, 0.00000000e+00)
add r2.xyz, r2.xyzx, r8.xyzx
dp3 r0.w, r2.xyzx, r2.xyzx
rsq r0.w, r0.w
mov r8.xyz, r0.wwwx
mul r2.xyz, r8.xyzx, r2.xyzx
mov r0.w, r2.x
mov r8.x, r0.w
mov r0.w, r2.xxxy
mov r8.y, r0.w
mov r0.w, r2.xxxz
mov r8.z, r0.w
mov r2.xyz, r5.xyzx
dp3 r0.w, r2.xyzx, r2.xyzx
rsq r0.w, r0.w
mov r5.xyz, r0.wwwx
mul r2.xyz, r5.xyzx, r2.xyzx
mov r0.w, r2.x
mov r5.x, r0.w
mov r0.w, r2.xxxy
mov r5.y, r0.w
mov r0.w, r2.xxxz
mov r5.z, r0.w
dp3 r0.w, r0.xyzx, r0.xyzx
rsq r0.w, r0.w
mov r2.xyz, r0.wwwx
mul r0.xyz, r2.xyzx, r0.xyzx
mov r0.w, r0.x
mov r2.x, r0.w
mov r0.w, r0.xxxy
mov r2.y, r0.w
mov r0.x, r0.zxxx
mov r2.z, r0.x
mov r0.xyz, r5.xyzx
mov r2.xyz, r2.xyzx
add r0.xyz, r0.xyzx, r2.xyzx
dp3 r0.w, r0.xyzx, r0.xyzx
rsq r0.w, r0.w
mov r2.xyz, r0.wwwx
mul r0.xyz, r2.xyzx, r0.xyzx
mov r0.w, r0.x
mov r2.x, r0.w
mov r0.w, r0.xxxy
mov r2.y, r0.w
mov r0.x, r0.zxxx
mov r2.z, r0.x
mov r0.xyz, r8.xyzx
mov r5.xyz, r5.xyzx
dp3 r0.x, r0.xyzx, r5.xyzx
mov_sat r0.x, r0.x
mov r0.yzw, r8.xxyz
mov r2.xyz, r2.xyzx
dp3 r0.y, r0.yzwx, r2.xyzx
mov_sat r0.y, r0.y
log r0.y, r0.y
mul r0.y, l(2.40000000e+01), r0.y
exp r0.y, r0.y
mov r2.xyzw, r7.xyzw
mov r2.xyz, r2.xyzx
mov r3.xyz, r3.xyzx
mov r5.xyz, r4.xyzx
mov r0.xzw, r0.x
mul r0.xzw, r5.xxyz, r0.xxzw
add r0.xzw, r3.xxyz, r0.xxzw
mul r0.xzw, r2.xxyz, r0.xxzw
mov r2.xyz, r4.xyzx
mov r3.xyz, r0.yyyx
mul r2.xyz, r2.xyzx, r3.xyzx
mov r1.xyz, r1.wwwx
mul r1.xyz, r2.xyzx, r1.xyzx
add r0.xyz, r0.xzwx, r1.xyzx
mov r0.w, r0.x
mov r1.x, r0.w
mov r0.w, r0.xxxy
mov r1.y, r0.w
mov r0.x, r0.zxxx
mov r1.z, r0.x
mov r0.x, r6.wxxx
mov r1.w, r0.x
mov r0.xyzw, r1.xyzw
mov o0.xyzw, r0.xyzw
ret
