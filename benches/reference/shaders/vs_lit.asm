vs_5_0
dcl_constantBuffer cb0[4], immediateIndexed
dcl_input v0.xyz
dcl_input v1.xyz
dcl_input v2.xy
dcl_output_siv o0.xyzw, position
dcl_output o1.xyz
dcl_output o2.xy
dcl_output o3.xyz
dcl_temps 8
mov r0.xy, v2.xyxx
mov r1.xyz, v1.xyzx
mov r2.xyz, v0.xyzx
mov r3.xyzw, cb0[0].xyzw
mov r4.xyzw, cb0[1].xyzw
mov r5.xyzw, cb0[2].xyzw
mov r6.xyzw, cb0[3].xyzw
mov r0.z, r3.x
mov r0.w, r2.x
mul r0.z, r0.z, r0.w
mov r0.w, r4.x
mov r1.w, r2.xxxy
mul r0.w, r0.w, r1.w
add r0.z, r0.z, r0.w
mov r0.w, r5.x
mov r1.w, r2.xxxz
mul r0.w, r0.w, r1.w
add r0.z, r0.z, r0.w
mov r0.w, r6.x
add r0.z, r0.z, r0.w
mov r0.w, r3.xxxy
mov r1.w, r2.x
mul r0.w, r0.w, r1.w
mov r1.w, r4.xxxy
mov r2.w, r2.xxxy
mul r1.w, r1.w, r2.w
add r0.w, r0.w, r1.w
mov r1.w, r5.xxxy
mov r2.w, r2.xxxz
mul r1.w, r1.w, r2.w
add r0.w, r0.w, r1.w
mov r1.w, r6.xxxy
add r0.w, r0.w, r1.w
mov r1.w, r3.xxxz
mov r2.w, r2.x
mul r1.w, r1.w, r2.w
mov r2.w, r4.xxxz
mov r7.x, r2.yxxx
mul r2.w, r2.w, r7.x
add r1.w, r1.w, r2.w
mov r2.w, r5.xxxz
mov r7.x, r2.zxxx
mul r2.w, r2.w, r7.x
add r1.w, r1.w, r2.w
mov r2.w, r6.xxxz
add r1.w, r1.w, r2.w
mov r2.w, r3.xxxw
mov r3.x, r2.x
mul r2.w, r2.w, r3.x
mov r3.x, r4.wxxx
mov r3.y, r2.xyxx
mul r3.x, r3.x, r3.y
add r2.w, r2.w, r3.x
mov r3.x, r5.wxxx
mov r3.y, r2.xzxx
mul r3.x, r3.x, r3.y
add r2.w, r2.w, r3.x
mov r3.x, r6.wxxx
add r2.w, r2.w, r3.x
mov r3.x, r0.z
mov r3.y, r0.w
mov r3.z, r1.w
mov r3.w, r2.w
mov r3.xyzw, r3.xyzw
mul r2.xyz, r2.xyzx, l(2.50000000e-01, 2.50000000e-01, 2.50000000e-01, 0.00000000e+00)
mov r2.xyz, -r2.xyzx
add r2.xyz, l(0.00000000e+00, 0.00000000e+00, 1.00000000e+00, 0.00000000e+00), r2.xyzx
mov o0.xyzw, r3.xyzw
mov o1.xyz, r1.xyzx
mov o2.xy, r0.xyxx
mov o3.xyz, r2.xyzx
ret
