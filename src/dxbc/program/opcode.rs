//! The SM4/SM5 opcode numbers, as `D3D10_SB_OPCODE_TYPE` in the token format header
//! (`d3d12tokenizedprogramformat.hpp`) numbers them: bits `[10:00]` of an opcode token.
//!
//! Every opcode the header defines is here, through the D3D11.1 double/`msad` opcodes and the WDDM 1.3 tiled-resource
//! feedback opcodes. The header's `RESERVED` markers (107, 112, 209, 218, 235) and anything past 234 are not opcodes.

/// An SM4/SM5 opcode. The discriminant is the header's `D3D10_SB_OPCODE_TYPE` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u16)]
pub enum Opcode {
    /// `add` (`D3D10_SB_OPCODE_ADD`).
    Add = 0,
    /// `and` (`D3D10_SB_OPCODE_AND`).
    And = 1,
    /// `break` (`D3D10_SB_OPCODE_BREAK`).
    Break = 2,
    /// `breakc` (`D3D10_SB_OPCODE_BREAKC`).
    Breakc = 3,
    /// `call` (`D3D10_SB_OPCODE_CALL`).
    Call = 4,
    /// `callc` (`D3D10_SB_OPCODE_CALLC`).
    Callc = 5,
    /// `case` (`D3D10_SB_OPCODE_CASE`).
    Case = 6,
    /// `continue` (`D3D10_SB_OPCODE_CONTINUE`).
    Continue = 7,
    /// `continuec` (`D3D10_SB_OPCODE_CONTINUEC`).
    Continuec = 8,
    /// `cut` (`D3D10_SB_OPCODE_CUT`).
    Cut = 9,
    /// `default` (`D3D10_SB_OPCODE_DEFAULT`).
    Default = 10,
    /// `deriv_rtx` (`D3D10_SB_OPCODE_DERIV_RTX`).
    DerivRtx = 11,
    /// `deriv_rty` (`D3D10_SB_OPCODE_DERIV_RTY`).
    DerivRty = 12,
    /// `discard` (`D3D10_SB_OPCODE_DISCARD`).
    Discard = 13,
    /// `div` (`D3D10_SB_OPCODE_DIV`).
    Div = 14,
    /// `dp2` (`D3D10_SB_OPCODE_DP2`).
    Dp2 = 15,
    /// `dp3` (`D3D10_SB_OPCODE_DP3`).
    Dp3 = 16,
    /// `dp4` (`D3D10_SB_OPCODE_DP4`).
    Dp4 = 17,
    /// `else` (`D3D10_SB_OPCODE_ELSE`).
    Else = 18,
    /// `emit` (`D3D10_SB_OPCODE_EMIT`).
    Emit = 19,
    /// `emitthencut` (`D3D10_SB_OPCODE_EMITTHENCUT`).
    Emitthencut = 20,
    /// `endif` (`D3D10_SB_OPCODE_ENDIF`).
    Endif = 21,
    /// `endloop` (`D3D10_SB_OPCODE_ENDLOOP`).
    Endloop = 22,
    /// `endswitch` (`D3D10_SB_OPCODE_ENDSWITCH`).
    Endswitch = 23,
    /// `eq` (`D3D10_SB_OPCODE_EQ`).
    Eq = 24,
    /// `exp` (`D3D10_SB_OPCODE_EXP`).
    Exp = 25,
    /// `frc` (`D3D10_SB_OPCODE_FRC`).
    Frc = 26,
    /// `ftoi` (`D3D10_SB_OPCODE_FTOI`).
    Ftoi = 27,
    /// `ftou` (`D3D10_SB_OPCODE_FTOU`).
    Ftou = 28,
    /// `ge` (`D3D10_SB_OPCODE_GE`).
    Ge = 29,
    /// `iadd` (`D3D10_SB_OPCODE_IADD`).
    Iadd = 30,
    /// `if` (`D3D10_SB_OPCODE_IF`).
    If = 31,
    /// `ieq` (`D3D10_SB_OPCODE_IEQ`).
    Ieq = 32,
    /// `ige` (`D3D10_SB_OPCODE_IGE`).
    Ige = 33,
    /// `ilt` (`D3D10_SB_OPCODE_ILT`).
    Ilt = 34,
    /// `imad` (`D3D10_SB_OPCODE_IMAD`).
    Imad = 35,
    /// `imax` (`D3D10_SB_OPCODE_IMAX`).
    Imax = 36,
    /// `imin` (`D3D10_SB_OPCODE_IMIN`).
    Imin = 37,
    /// `imul` (`D3D10_SB_OPCODE_IMUL`).
    Imul = 38,
    /// `ine` (`D3D10_SB_OPCODE_INE`).
    Ine = 39,
    /// `ineg` (`D3D10_SB_OPCODE_INEG`).
    Ineg = 40,
    /// `ishl` (`D3D10_SB_OPCODE_ISHL`).
    Ishl = 41,
    /// `ishr` (`D3D10_SB_OPCODE_ISHR`).
    Ishr = 42,
    /// `itof` (`D3D10_SB_OPCODE_ITOF`).
    Itof = 43,
    /// `label` (`D3D10_SB_OPCODE_LABEL`).
    Label = 44,
    /// `ld` (`D3D10_SB_OPCODE_LD`).
    Ld = 45,
    /// `ld_ms` (`D3D10_SB_OPCODE_LD_MS`).
    LdMs = 46,
    /// `log` (`D3D10_SB_OPCODE_LOG`).
    Log = 47,
    /// `loop` (`D3D10_SB_OPCODE_LOOP`).
    Loop = 48,
    /// `lt` (`D3D10_SB_OPCODE_LT`).
    Lt = 49,
    /// `mad` (`D3D10_SB_OPCODE_MAD`).
    Mad = 50,
    /// `min` (`D3D10_SB_OPCODE_MIN`).
    Min = 51,
    /// `max` (`D3D10_SB_OPCODE_MAX`).
    Max = 52,
    /// `customdata` (`D3D10_SB_OPCODE_CUSTOMDATA`).
    CustomData = 53,
    /// `mov` (`D3D10_SB_OPCODE_MOV`).
    Mov = 54,
    /// `movc` (`D3D10_SB_OPCODE_MOVC`).
    Movc = 55,
    /// `mul` (`D3D10_SB_OPCODE_MUL`).
    Mul = 56,
    /// `ne` (`D3D10_SB_OPCODE_NE`).
    Ne = 57,
    /// `nop` (`D3D10_SB_OPCODE_NOP`).
    Nop = 58,
    /// `not` (`D3D10_SB_OPCODE_NOT`).
    Not = 59,
    /// `or` (`D3D10_SB_OPCODE_OR`).
    Or = 60,
    /// `resinfo` (`D3D10_SB_OPCODE_RESINFO`).
    Resinfo = 61,
    /// `ret` (`D3D10_SB_OPCODE_RET`).
    Ret = 62,
    /// `retc` (`D3D10_SB_OPCODE_RETC`).
    Retc = 63,
    /// `round_ne` (`D3D10_SB_OPCODE_ROUND_NE`).
    RoundNe = 64,
    /// `round_ni` (`D3D10_SB_OPCODE_ROUND_NI`).
    RoundNi = 65,
    /// `round_pi` (`D3D10_SB_OPCODE_ROUND_PI`).
    RoundPi = 66,
    /// `round_z` (`D3D10_SB_OPCODE_ROUND_Z`).
    RoundZ = 67,
    /// `rsq` (`D3D10_SB_OPCODE_RSQ`).
    Rsq = 68,
    /// `sample` (`D3D10_SB_OPCODE_SAMPLE`).
    Sample = 69,
    /// `sample_c` (`D3D10_SB_OPCODE_SAMPLE_C`).
    SampleC = 70,
    /// `sample_c_lz` (`D3D10_SB_OPCODE_SAMPLE_C_LZ`).
    SampleCLz = 71,
    /// `sample_l` (`D3D10_SB_OPCODE_SAMPLE_L`).
    SampleL = 72,
    /// `sample_d` (`D3D10_SB_OPCODE_SAMPLE_D`).
    SampleD = 73,
    /// `sample_b` (`D3D10_SB_OPCODE_SAMPLE_B`).
    SampleB = 74,
    /// `sqrt` (`D3D10_SB_OPCODE_SQRT`).
    Sqrt = 75,
    /// `switch` (`D3D10_SB_OPCODE_SWITCH`).
    Switch = 76,
    /// `sincos` (`D3D10_SB_OPCODE_SINCOS`).
    Sincos = 77,
    /// `udiv` (`D3D10_SB_OPCODE_UDIV`).
    Udiv = 78,
    /// `ult` (`D3D10_SB_OPCODE_ULT`).
    Ult = 79,
    /// `uge` (`D3D10_SB_OPCODE_UGE`).
    Uge = 80,
    /// `umul` (`D3D10_SB_OPCODE_UMUL`).
    Umul = 81,
    /// `umad` (`D3D10_SB_OPCODE_UMAD`).
    Umad = 82,
    /// `umax` (`D3D10_SB_OPCODE_UMAX`).
    Umax = 83,
    /// `umin` (`D3D10_SB_OPCODE_UMIN`).
    Umin = 84,
    /// `ushr` (`D3D10_SB_OPCODE_USHR`).
    Ushr = 85,
    /// `utof` (`D3D10_SB_OPCODE_UTOF`).
    Utof = 86,
    /// `xor` (`D3D10_SB_OPCODE_XOR`).
    Xor = 87,
    /// `dcl_resource` (`D3D10_SB_OPCODE_DCL_RESOURCE`).
    DclResource = 88,
    /// `dcl_constant_buffer` (`D3D10_SB_OPCODE_DCL_CONSTANT_BUFFER`).
    DclConstantBuffer = 89,
    /// `dcl_sampler` (`D3D10_SB_OPCODE_DCL_SAMPLER`).
    DclSampler = 90,
    /// `dcl_index_range` (`D3D10_SB_OPCODE_DCL_INDEX_RANGE`).
    DclIndexRange = 91,
    /// `dcl_gs_output_primitive_topology` (`D3D10_SB_OPCODE_DCL_GS_OUTPUT_PRIMITIVE_TOPOLOGY`).
    DclGsOutputPrimitiveTopology = 92,
    /// `dcl_gs_input_primitive` (`D3D10_SB_OPCODE_DCL_GS_INPUT_PRIMITIVE`).
    DclGsInputPrimitive = 93,
    /// `dcl_max_output_vertex_count` (`D3D10_SB_OPCODE_DCL_MAX_OUTPUT_VERTEX_COUNT`).
    DclMaxOutputVertexCount = 94,
    /// `dcl_input` (`D3D10_SB_OPCODE_DCL_INPUT`).
    DclInput = 95,
    /// `dcl_input_sgv` (`D3D10_SB_OPCODE_DCL_INPUT_SGV`).
    DclInputSgv = 96,
    /// `dcl_input_siv` (`D3D10_SB_OPCODE_DCL_INPUT_SIV`).
    DclInputSiv = 97,
    /// `dcl_input_ps` (`D3D10_SB_OPCODE_DCL_INPUT_PS`).
    DclInputPs = 98,
    /// `dcl_input_ps_sgv` (`D3D10_SB_OPCODE_DCL_INPUT_PS_SGV`).
    DclInputPsSgv = 99,
    /// `dcl_input_ps_siv` (`D3D10_SB_OPCODE_DCL_INPUT_PS_SIV`).
    DclInputPsSiv = 100,
    /// `dcl_output` (`D3D10_SB_OPCODE_DCL_OUTPUT`).
    DclOutput = 101,
    /// `dcl_output_sgv` (`D3D10_SB_OPCODE_DCL_OUTPUT_SGV`).
    DclOutputSgv = 102,
    /// `dcl_output_siv` (`D3D10_SB_OPCODE_DCL_OUTPUT_SIV`).
    DclOutputSiv = 103,
    /// `dcl_temps` (`D3D10_SB_OPCODE_DCL_TEMPS`).
    DclTemps = 104,
    /// `dcl_indexable_temp` (`D3D10_SB_OPCODE_DCL_INDEXABLE_TEMP`).
    DclIndexableTemp = 105,
    /// `dcl_global_flags` (`D3D10_SB_OPCODE_DCL_GLOBAL_FLAGS`).
    DclGlobalFlags = 106,
    /// `lod` (`D3D10_1_SB_OPCODE_LOD`).
    Lod = 108,
    /// `gather4` (`D3D10_1_SB_OPCODE_GATHER4`).
    Gather4 = 109,
    /// `sample_pos` (`D3D10_1_SB_OPCODE_SAMPLE_POS`).
    SamplePos = 110,
    /// `sample_info` (`D3D10_1_SB_OPCODE_SAMPLE_INFO`).
    SampleInfo = 111,
    /// `hs_decls` (`D3D11_SB_OPCODE_HS_DECLS`).
    HsDecls = 113,
    /// `hs_control_point_phase` (`D3D11_SB_OPCODE_HS_CONTROL_POINT_PHASE`).
    HsControlPointPhase = 114,
    /// `hs_fork_phase` (`D3D11_SB_OPCODE_HS_FORK_PHASE`).
    HsForkPhase = 115,
    /// `hs_join_phase` (`D3D11_SB_OPCODE_HS_JOIN_PHASE`).
    HsJoinPhase = 116,
    /// `emit_stream` (`D3D11_SB_OPCODE_EMIT_STREAM`).
    EmitStream = 117,
    /// `cut_stream` (`D3D11_SB_OPCODE_CUT_STREAM`).
    CutStream = 118,
    /// `emitthencut_stream` (`D3D11_SB_OPCODE_EMITTHENCUT_STREAM`).
    EmitthencutStream = 119,
    /// `interface_call` (`D3D11_SB_OPCODE_INTERFACE_CALL`).
    InterfaceCall = 120,
    /// `bufinfo` (`D3D11_SB_OPCODE_BUFINFO`).
    Bufinfo = 121,
    /// `deriv_rtx_coarse` (`D3D11_SB_OPCODE_DERIV_RTX_COARSE`).
    DerivRtxCoarse = 122,
    /// `deriv_rtx_fine` (`D3D11_SB_OPCODE_DERIV_RTX_FINE`).
    DerivRtxFine = 123,
    /// `deriv_rty_coarse` (`D3D11_SB_OPCODE_DERIV_RTY_COARSE`).
    DerivRtyCoarse = 124,
    /// `deriv_rty_fine` (`D3D11_SB_OPCODE_DERIV_RTY_FINE`).
    DerivRtyFine = 125,
    /// `gather4_c` (`D3D11_SB_OPCODE_GATHER4_C`).
    Gather4C = 126,
    /// `gather4_po` (`D3D11_SB_OPCODE_GATHER4_PO`).
    Gather4Po = 127,
    /// `gather4_po_c` (`D3D11_SB_OPCODE_GATHER4_PO_C`).
    Gather4PoC = 128,
    /// `rcp` (`D3D11_SB_OPCODE_RCP`).
    Rcp = 129,
    /// `f32tof16` (`D3D11_SB_OPCODE_F32TOF16`).
    F32tof16 = 130,
    /// `f16tof32` (`D3D11_SB_OPCODE_F16TOF32`).
    F16tof32 = 131,
    /// `uaddc` (`D3D11_SB_OPCODE_UADDC`).
    Uaddc = 132,
    /// `usubb` (`D3D11_SB_OPCODE_USUBB`).
    Usubb = 133,
    /// `countbits` (`D3D11_SB_OPCODE_COUNTBITS`).
    Countbits = 134,
    /// `firstbit_hi` (`D3D11_SB_OPCODE_FIRSTBIT_HI`).
    FirstbitHi = 135,
    /// `firstbit_lo` (`D3D11_SB_OPCODE_FIRSTBIT_LO`).
    FirstbitLo = 136,
    /// `firstbit_shi` (`D3D11_SB_OPCODE_FIRSTBIT_SHI`).
    FirstbitShi = 137,
    /// `ubfe` (`D3D11_SB_OPCODE_UBFE`).
    Ubfe = 138,
    /// `ibfe` (`D3D11_SB_OPCODE_IBFE`).
    Ibfe = 139,
    /// `bfi` (`D3D11_SB_OPCODE_BFI`).
    Bfi = 140,
    /// `bfrev` (`D3D11_SB_OPCODE_BFREV`).
    Bfrev = 141,
    /// `swapc` (`D3D11_SB_OPCODE_SWAPC`).
    Swapc = 142,
    /// `dcl_stream` (`D3D11_SB_OPCODE_DCL_STREAM`).
    DclStream = 143,
    /// `dcl_function_body` (`D3D11_SB_OPCODE_DCL_FUNCTION_BODY`).
    DclFunctionBody = 144,
    /// `dcl_function_table` (`D3D11_SB_OPCODE_DCL_FUNCTION_TABLE`).
    DclFunctionTable = 145,
    /// `dcl_interface` (`D3D11_SB_OPCODE_DCL_INTERFACE`).
    DclInterface = 146,
    /// `dcl_input_control_point_count` (`D3D11_SB_OPCODE_DCL_INPUT_CONTROL_POINT_COUNT`).
    DclInputControlPointCount = 147,
    /// `dcl_output_control_point_count` (`D3D11_SB_OPCODE_DCL_OUTPUT_CONTROL_POINT_COUNT`).
    DclOutputControlPointCount = 148,
    /// `dcl_tess_domain` (`D3D11_SB_OPCODE_DCL_TESS_DOMAIN`).
    DclTessDomain = 149,
    /// `dcl_tess_partitioning` (`D3D11_SB_OPCODE_DCL_TESS_PARTITIONING`).
    DclTessPartitioning = 150,
    /// `dcl_tess_output_primitive` (`D3D11_SB_OPCODE_DCL_TESS_OUTPUT_PRIMITIVE`).
    DclTessOutputPrimitive = 151,
    /// `dcl_hs_max_tessfactor` (`D3D11_SB_OPCODE_DCL_HS_MAX_TESSFACTOR`).
    DclHsMaxTessfactor = 152,
    /// `dcl_hs_fork_phase_instance_count` (`D3D11_SB_OPCODE_DCL_HS_FORK_PHASE_INSTANCE_COUNT`).
    DclHsForkPhaseInstanceCount = 153,
    /// `dcl_hs_join_phase_instance_count` (`D3D11_SB_OPCODE_DCL_HS_JOIN_PHASE_INSTANCE_COUNT`).
    DclHsJoinPhaseInstanceCount = 154,
    /// `dcl_thread_group` (`D3D11_SB_OPCODE_DCL_THREAD_GROUP`).
    DclThreadGroup = 155,
    /// `dcl_unordered_access_view_typed` (`D3D11_SB_OPCODE_DCL_UNORDERED_ACCESS_VIEW_TYPED`).
    DclUnorderedAccessViewTyped = 156,
    /// `dcl_unordered_access_view_raw` (`D3D11_SB_OPCODE_DCL_UNORDERED_ACCESS_VIEW_RAW`).
    DclUnorderedAccessViewRaw = 157,
    /// `dcl_unordered_access_view_structured` (`D3D11_SB_OPCODE_DCL_UNORDERED_ACCESS_VIEW_STRUCTURED`).
    DclUnorderedAccessViewStructured = 158,
    /// `dcl_thread_group_shared_memory_raw` (`D3D11_SB_OPCODE_DCL_THREAD_GROUP_SHARED_MEMORY_RAW`).
    DclThreadGroupSharedMemoryRaw = 159,
    /// `dcl_thread_group_shared_memory_structured` (`D3D11_SB_OPCODE_DCL_THREAD_GROUP_SHARED_MEMORY_STRUCTURED`).
    DclThreadGroupSharedMemoryStructured = 160,
    /// `dcl_resource_raw` (`D3D11_SB_OPCODE_DCL_RESOURCE_RAW`).
    DclResourceRaw = 161,
    /// `dcl_resource_structured` (`D3D11_SB_OPCODE_DCL_RESOURCE_STRUCTURED`).
    DclResourceStructured = 162,
    /// `ld_uav_typed` (`D3D11_SB_OPCODE_LD_UAV_TYPED`).
    LdUavTyped = 163,
    /// `store_uav_typed` (`D3D11_SB_OPCODE_STORE_UAV_TYPED`).
    StoreUavTyped = 164,
    /// `ld_raw` (`D3D11_SB_OPCODE_LD_RAW`).
    LdRaw = 165,
    /// `store_raw` (`D3D11_SB_OPCODE_STORE_RAW`).
    StoreRaw = 166,
    /// `ld_structured` (`D3D11_SB_OPCODE_LD_STRUCTURED`).
    LdStructured = 167,
    /// `store_structured` (`D3D11_SB_OPCODE_STORE_STRUCTURED`).
    StoreStructured = 168,
    /// `atomic_and` (`D3D11_SB_OPCODE_ATOMIC_AND`).
    AtomicAnd = 169,
    /// `atomic_or` (`D3D11_SB_OPCODE_ATOMIC_OR`).
    AtomicOr = 170,
    /// `atomic_xor` (`D3D11_SB_OPCODE_ATOMIC_XOR`).
    AtomicXor = 171,
    /// `atomic_cmp_store` (`D3D11_SB_OPCODE_ATOMIC_CMP_STORE`).
    AtomicCmpStore = 172,
    /// `atomic_iadd` (`D3D11_SB_OPCODE_ATOMIC_IADD`).
    AtomicIadd = 173,
    /// `atomic_imax` (`D3D11_SB_OPCODE_ATOMIC_IMAX`).
    AtomicImax = 174,
    /// `atomic_imin` (`D3D11_SB_OPCODE_ATOMIC_IMIN`).
    AtomicImin = 175,
    /// `atomic_umax` (`D3D11_SB_OPCODE_ATOMIC_UMAX`).
    AtomicUmax = 176,
    /// `atomic_umin` (`D3D11_SB_OPCODE_ATOMIC_UMIN`).
    AtomicUmin = 177,
    /// `imm_atomic_alloc` (`D3D11_SB_OPCODE_IMM_ATOMIC_ALLOC`).
    ImmAtomicAlloc = 178,
    /// `imm_atomic_consume` (`D3D11_SB_OPCODE_IMM_ATOMIC_CONSUME`).
    ImmAtomicConsume = 179,
    /// `imm_atomic_iadd` (`D3D11_SB_OPCODE_IMM_ATOMIC_IADD`).
    ImmAtomicIadd = 180,
    /// `imm_atomic_and` (`D3D11_SB_OPCODE_IMM_ATOMIC_AND`).
    ImmAtomicAnd = 181,
    /// `imm_atomic_or` (`D3D11_SB_OPCODE_IMM_ATOMIC_OR`).
    ImmAtomicOr = 182,
    /// `imm_atomic_xor` (`D3D11_SB_OPCODE_IMM_ATOMIC_XOR`).
    ImmAtomicXor = 183,
    /// `imm_atomic_exch` (`D3D11_SB_OPCODE_IMM_ATOMIC_EXCH`).
    ImmAtomicExch = 184,
    /// `imm_atomic_cmp_exch` (`D3D11_SB_OPCODE_IMM_ATOMIC_CMP_EXCH`).
    ImmAtomicCmpExch = 185,
    /// `imm_atomic_imax` (`D3D11_SB_OPCODE_IMM_ATOMIC_IMAX`).
    ImmAtomicImax = 186,
    /// `imm_atomic_imin` (`D3D11_SB_OPCODE_IMM_ATOMIC_IMIN`).
    ImmAtomicImin = 187,
    /// `imm_atomic_umax` (`D3D11_SB_OPCODE_IMM_ATOMIC_UMAX`).
    ImmAtomicUmax = 188,
    /// `imm_atomic_umin` (`D3D11_SB_OPCODE_IMM_ATOMIC_UMIN`).
    ImmAtomicUmin = 189,
    /// `sync` (`D3D11_SB_OPCODE_SYNC`).
    Sync = 190,
    /// `dadd` (`D3D11_SB_OPCODE_DADD`).
    Dadd = 191,
    /// `dmax` (`D3D11_SB_OPCODE_DMAX`).
    Dmax = 192,
    /// `dmin` (`D3D11_SB_OPCODE_DMIN`).
    Dmin = 193,
    /// `dmul` (`D3D11_SB_OPCODE_DMUL`).
    Dmul = 194,
    /// `deq` (`D3D11_SB_OPCODE_DEQ`).
    Deq = 195,
    /// `dge` (`D3D11_SB_OPCODE_DGE`).
    Dge = 196,
    /// `dlt` (`D3D11_SB_OPCODE_DLT`).
    Dlt = 197,
    /// `dne` (`D3D11_SB_OPCODE_DNE`).
    Dne = 198,
    /// `dmov` (`D3D11_SB_OPCODE_DMOV`).
    Dmov = 199,
    /// `dmovc` (`D3D11_SB_OPCODE_DMOVC`).
    Dmovc = 200,
    /// `dtof` (`D3D11_SB_OPCODE_DTOF`).
    Dtof = 201,
    /// `ftod` (`D3D11_SB_OPCODE_FTOD`).
    Ftod = 202,
    /// `eval_snapped` (`D3D11_SB_OPCODE_EVAL_SNAPPED`).
    EvalSnapped = 203,
    /// `eval_sample_index` (`D3D11_SB_OPCODE_EVAL_SAMPLE_INDEX`).
    EvalSampleIndex = 204,
    /// `eval_centroid` (`D3D11_SB_OPCODE_EVAL_CENTROID`).
    EvalCentroid = 205,
    /// `dcl_gs_instance_count` (`D3D11_SB_OPCODE_DCL_GS_INSTANCE_COUNT`).
    DclGsInstanceCount = 206,
    /// `abort` (`D3D11_SB_OPCODE_ABORT`).
    Abort = 207,
    /// `debug_break` (`D3D11_SB_OPCODE_DEBUG_BREAK`).
    DebugBreak = 208,
    /// `ddiv` (`D3D11_1_SB_OPCODE_DDIV`).
    Ddiv = 210,
    /// `dfma` (`D3D11_1_SB_OPCODE_DFMA`).
    Dfma = 211,
    /// `drcp` (`D3D11_1_SB_OPCODE_DRCP`).
    Drcp = 212,
    /// `msad` (`D3D11_1_SB_OPCODE_MSAD`).
    Msad = 213,
    /// `dtoi` (`D3D11_1_SB_OPCODE_DTOI`).
    Dtoi = 214,
    /// `dtou` (`D3D11_1_SB_OPCODE_DTOU`).
    Dtou = 215,
    /// `itod` (`D3D11_1_SB_OPCODE_ITOD`).
    Itod = 216,
    /// `utod` (`D3D11_1_SB_OPCODE_UTOD`).
    Utod = 217,
    /// `gather4_feedback` (`D3DWDDM1_3_SB_OPCODE_GATHER4_FEEDBACK`).
    Gather4Feedback = 219,
    /// `gather4_c_feedback` (`D3DWDDM1_3_SB_OPCODE_GATHER4_C_FEEDBACK`).
    Gather4CFeedback = 220,
    /// `gather4_po_feedback` (`D3DWDDM1_3_SB_OPCODE_GATHER4_PO_FEEDBACK`).
    Gather4PoFeedback = 221,
    /// `gather4_po_c_feedback` (`D3DWDDM1_3_SB_OPCODE_GATHER4_PO_C_FEEDBACK`).
    Gather4PoCFeedback = 222,
    /// `ld_feedback` (`D3DWDDM1_3_SB_OPCODE_LD_FEEDBACK`).
    LdFeedback = 223,
    /// `ld_ms_feedback` (`D3DWDDM1_3_SB_OPCODE_LD_MS_FEEDBACK`).
    LdMsFeedback = 224,
    /// `ld_uav_typed_feedback` (`D3DWDDM1_3_SB_OPCODE_LD_UAV_TYPED_FEEDBACK`).
    LdUavTypedFeedback = 225,
    /// `ld_raw_feedback` (`D3DWDDM1_3_SB_OPCODE_LD_RAW_FEEDBACK`).
    LdRawFeedback = 226,
    /// `ld_structured_feedback` (`D3DWDDM1_3_SB_OPCODE_LD_STRUCTURED_FEEDBACK`).
    LdStructuredFeedback = 227,
    /// `sample_l_feedback` (`D3DWDDM1_3_SB_OPCODE_SAMPLE_L_FEEDBACK`).
    SampleLFeedback = 228,
    /// `sample_c_lz_feedback` (`D3DWDDM1_3_SB_OPCODE_SAMPLE_C_LZ_FEEDBACK`).
    SampleCLzFeedback = 229,
    /// `sample_clamp_feedback` (`D3DWDDM1_3_SB_OPCODE_SAMPLE_CLAMP_FEEDBACK`).
    SampleClampFeedback = 230,
    /// `sample_b_clamp_feedback` (`D3DWDDM1_3_SB_OPCODE_SAMPLE_B_CLAMP_FEEDBACK`).
    SampleBClampFeedback = 231,
    /// `sample_d_clamp_feedback` (`D3DWDDM1_3_SB_OPCODE_SAMPLE_D_CLAMP_FEEDBACK`).
    SampleDClampFeedback = 232,
    /// `sample_c_clamp_feedback` (`D3DWDDM1_3_SB_OPCODE_SAMPLE_C_CLAMP_FEEDBACK`).
    SampleCClampFeedback = 233,
    /// `check_access_fully_mapped` (`D3DWDDM1_3_SB_OPCODE_CHECK_ACCESS_FULLY_MAPPED`).
    CheckAccessFullyMapped = 234,
}

impl Opcode {
    /// Every opcode, in numeric order.
    pub const ALL: [Opcode; 231] = [
        Opcode::Add,
        Opcode::And,
        Opcode::Break,
        Opcode::Breakc,
        Opcode::Call,
        Opcode::Callc,
        Opcode::Case,
        Opcode::Continue,
        Opcode::Continuec,
        Opcode::Cut,
        Opcode::Default,
        Opcode::DerivRtx,
        Opcode::DerivRty,
        Opcode::Discard,
        Opcode::Div,
        Opcode::Dp2,
        Opcode::Dp3,
        Opcode::Dp4,
        Opcode::Else,
        Opcode::Emit,
        Opcode::Emitthencut,
        Opcode::Endif,
        Opcode::Endloop,
        Opcode::Endswitch,
        Opcode::Eq,
        Opcode::Exp,
        Opcode::Frc,
        Opcode::Ftoi,
        Opcode::Ftou,
        Opcode::Ge,
        Opcode::Iadd,
        Opcode::If,
        Opcode::Ieq,
        Opcode::Ige,
        Opcode::Ilt,
        Opcode::Imad,
        Opcode::Imax,
        Opcode::Imin,
        Opcode::Imul,
        Opcode::Ine,
        Opcode::Ineg,
        Opcode::Ishl,
        Opcode::Ishr,
        Opcode::Itof,
        Opcode::Label,
        Opcode::Ld,
        Opcode::LdMs,
        Opcode::Log,
        Opcode::Loop,
        Opcode::Lt,
        Opcode::Mad,
        Opcode::Min,
        Opcode::Max,
        Opcode::CustomData,
        Opcode::Mov,
        Opcode::Movc,
        Opcode::Mul,
        Opcode::Ne,
        Opcode::Nop,
        Opcode::Not,
        Opcode::Or,
        Opcode::Resinfo,
        Opcode::Ret,
        Opcode::Retc,
        Opcode::RoundNe,
        Opcode::RoundNi,
        Opcode::RoundPi,
        Opcode::RoundZ,
        Opcode::Rsq,
        Opcode::Sample,
        Opcode::SampleC,
        Opcode::SampleCLz,
        Opcode::SampleL,
        Opcode::SampleD,
        Opcode::SampleB,
        Opcode::Sqrt,
        Opcode::Switch,
        Opcode::Sincos,
        Opcode::Udiv,
        Opcode::Ult,
        Opcode::Uge,
        Opcode::Umul,
        Opcode::Umad,
        Opcode::Umax,
        Opcode::Umin,
        Opcode::Ushr,
        Opcode::Utof,
        Opcode::Xor,
        Opcode::DclResource,
        Opcode::DclConstantBuffer,
        Opcode::DclSampler,
        Opcode::DclIndexRange,
        Opcode::DclGsOutputPrimitiveTopology,
        Opcode::DclGsInputPrimitive,
        Opcode::DclMaxOutputVertexCount,
        Opcode::DclInput,
        Opcode::DclInputSgv,
        Opcode::DclInputSiv,
        Opcode::DclInputPs,
        Opcode::DclInputPsSgv,
        Opcode::DclInputPsSiv,
        Opcode::DclOutput,
        Opcode::DclOutputSgv,
        Opcode::DclOutputSiv,
        Opcode::DclTemps,
        Opcode::DclIndexableTemp,
        Opcode::DclGlobalFlags,
        Opcode::Lod,
        Opcode::Gather4,
        Opcode::SamplePos,
        Opcode::SampleInfo,
        Opcode::HsDecls,
        Opcode::HsControlPointPhase,
        Opcode::HsForkPhase,
        Opcode::HsJoinPhase,
        Opcode::EmitStream,
        Opcode::CutStream,
        Opcode::EmitthencutStream,
        Opcode::InterfaceCall,
        Opcode::Bufinfo,
        Opcode::DerivRtxCoarse,
        Opcode::DerivRtxFine,
        Opcode::DerivRtyCoarse,
        Opcode::DerivRtyFine,
        Opcode::Gather4C,
        Opcode::Gather4Po,
        Opcode::Gather4PoC,
        Opcode::Rcp,
        Opcode::F32tof16,
        Opcode::F16tof32,
        Opcode::Uaddc,
        Opcode::Usubb,
        Opcode::Countbits,
        Opcode::FirstbitHi,
        Opcode::FirstbitLo,
        Opcode::FirstbitShi,
        Opcode::Ubfe,
        Opcode::Ibfe,
        Opcode::Bfi,
        Opcode::Bfrev,
        Opcode::Swapc,
        Opcode::DclStream,
        Opcode::DclFunctionBody,
        Opcode::DclFunctionTable,
        Opcode::DclInterface,
        Opcode::DclInputControlPointCount,
        Opcode::DclOutputControlPointCount,
        Opcode::DclTessDomain,
        Opcode::DclTessPartitioning,
        Opcode::DclTessOutputPrimitive,
        Opcode::DclHsMaxTessfactor,
        Opcode::DclHsForkPhaseInstanceCount,
        Opcode::DclHsJoinPhaseInstanceCount,
        Opcode::DclThreadGroup,
        Opcode::DclUnorderedAccessViewTyped,
        Opcode::DclUnorderedAccessViewRaw,
        Opcode::DclUnorderedAccessViewStructured,
        Opcode::DclThreadGroupSharedMemoryRaw,
        Opcode::DclThreadGroupSharedMemoryStructured,
        Opcode::DclResourceRaw,
        Opcode::DclResourceStructured,
        Opcode::LdUavTyped,
        Opcode::StoreUavTyped,
        Opcode::LdRaw,
        Opcode::StoreRaw,
        Opcode::LdStructured,
        Opcode::StoreStructured,
        Opcode::AtomicAnd,
        Opcode::AtomicOr,
        Opcode::AtomicXor,
        Opcode::AtomicCmpStore,
        Opcode::AtomicIadd,
        Opcode::AtomicImax,
        Opcode::AtomicImin,
        Opcode::AtomicUmax,
        Opcode::AtomicUmin,
        Opcode::ImmAtomicAlloc,
        Opcode::ImmAtomicConsume,
        Opcode::ImmAtomicIadd,
        Opcode::ImmAtomicAnd,
        Opcode::ImmAtomicOr,
        Opcode::ImmAtomicXor,
        Opcode::ImmAtomicExch,
        Opcode::ImmAtomicCmpExch,
        Opcode::ImmAtomicImax,
        Opcode::ImmAtomicImin,
        Opcode::ImmAtomicUmax,
        Opcode::ImmAtomicUmin,
        Opcode::Sync,
        Opcode::Dadd,
        Opcode::Dmax,
        Opcode::Dmin,
        Opcode::Dmul,
        Opcode::Deq,
        Opcode::Dge,
        Opcode::Dlt,
        Opcode::Dne,
        Opcode::Dmov,
        Opcode::Dmovc,
        Opcode::Dtof,
        Opcode::Ftod,
        Opcode::EvalSnapped,
        Opcode::EvalSampleIndex,
        Opcode::EvalCentroid,
        Opcode::DclGsInstanceCount,
        Opcode::Abort,
        Opcode::DebugBreak,
        Opcode::Ddiv,
        Opcode::Dfma,
        Opcode::Drcp,
        Opcode::Msad,
        Opcode::Dtoi,
        Opcode::Dtou,
        Opcode::Itod,
        Opcode::Utod,
        Opcode::Gather4Feedback,
        Opcode::Gather4CFeedback,
        Opcode::Gather4PoFeedback,
        Opcode::Gather4PoCFeedback,
        Opcode::LdFeedback,
        Opcode::LdMsFeedback,
        Opcode::LdUavTypedFeedback,
        Opcode::LdRawFeedback,
        Opcode::LdStructuredFeedback,
        Opcode::SampleLFeedback,
        Opcode::SampleCLzFeedback,
        Opcode::SampleClampFeedback,
        Opcode::SampleBClampFeedback,
        Opcode::SampleDClampFeedback,
        Opcode::SampleCClampFeedback,
        Opcode::CheckAccessFullyMapped,
    ];

    /// The opcode numbered `value` (bits `[10:00]` of an opcode token), or `None` where the header defines none.
    pub fn from_raw(value: u32) -> Option<Opcode> {
        Some(match value {
            0 => Opcode::Add,
            1 => Opcode::And,
            2 => Opcode::Break,
            3 => Opcode::Breakc,
            4 => Opcode::Call,
            5 => Opcode::Callc,
            6 => Opcode::Case,
            7 => Opcode::Continue,
            8 => Opcode::Continuec,
            9 => Opcode::Cut,
            10 => Opcode::Default,
            11 => Opcode::DerivRtx,
            12 => Opcode::DerivRty,
            13 => Opcode::Discard,
            14 => Opcode::Div,
            15 => Opcode::Dp2,
            16 => Opcode::Dp3,
            17 => Opcode::Dp4,
            18 => Opcode::Else,
            19 => Opcode::Emit,
            20 => Opcode::Emitthencut,
            21 => Opcode::Endif,
            22 => Opcode::Endloop,
            23 => Opcode::Endswitch,
            24 => Opcode::Eq,
            25 => Opcode::Exp,
            26 => Opcode::Frc,
            27 => Opcode::Ftoi,
            28 => Opcode::Ftou,
            29 => Opcode::Ge,
            30 => Opcode::Iadd,
            31 => Opcode::If,
            32 => Opcode::Ieq,
            33 => Opcode::Ige,
            34 => Opcode::Ilt,
            35 => Opcode::Imad,
            36 => Opcode::Imax,
            37 => Opcode::Imin,
            38 => Opcode::Imul,
            39 => Opcode::Ine,
            40 => Opcode::Ineg,
            41 => Opcode::Ishl,
            42 => Opcode::Ishr,
            43 => Opcode::Itof,
            44 => Opcode::Label,
            45 => Opcode::Ld,
            46 => Opcode::LdMs,
            47 => Opcode::Log,
            48 => Opcode::Loop,
            49 => Opcode::Lt,
            50 => Opcode::Mad,
            51 => Opcode::Min,
            52 => Opcode::Max,
            53 => Opcode::CustomData,
            54 => Opcode::Mov,
            55 => Opcode::Movc,
            56 => Opcode::Mul,
            57 => Opcode::Ne,
            58 => Opcode::Nop,
            59 => Opcode::Not,
            60 => Opcode::Or,
            61 => Opcode::Resinfo,
            62 => Opcode::Ret,
            63 => Opcode::Retc,
            64 => Opcode::RoundNe,
            65 => Opcode::RoundNi,
            66 => Opcode::RoundPi,
            67 => Opcode::RoundZ,
            68 => Opcode::Rsq,
            69 => Opcode::Sample,
            70 => Opcode::SampleC,
            71 => Opcode::SampleCLz,
            72 => Opcode::SampleL,
            73 => Opcode::SampleD,
            74 => Opcode::SampleB,
            75 => Opcode::Sqrt,
            76 => Opcode::Switch,
            77 => Opcode::Sincos,
            78 => Opcode::Udiv,
            79 => Opcode::Ult,
            80 => Opcode::Uge,
            81 => Opcode::Umul,
            82 => Opcode::Umad,
            83 => Opcode::Umax,
            84 => Opcode::Umin,
            85 => Opcode::Ushr,
            86 => Opcode::Utof,
            87 => Opcode::Xor,
            88 => Opcode::DclResource,
            89 => Opcode::DclConstantBuffer,
            90 => Opcode::DclSampler,
            91 => Opcode::DclIndexRange,
            92 => Opcode::DclGsOutputPrimitiveTopology,
            93 => Opcode::DclGsInputPrimitive,
            94 => Opcode::DclMaxOutputVertexCount,
            95 => Opcode::DclInput,
            96 => Opcode::DclInputSgv,
            97 => Opcode::DclInputSiv,
            98 => Opcode::DclInputPs,
            99 => Opcode::DclInputPsSgv,
            100 => Opcode::DclInputPsSiv,
            101 => Opcode::DclOutput,
            102 => Opcode::DclOutputSgv,
            103 => Opcode::DclOutputSiv,
            104 => Opcode::DclTemps,
            105 => Opcode::DclIndexableTemp,
            106 => Opcode::DclGlobalFlags,
            108 => Opcode::Lod,
            109 => Opcode::Gather4,
            110 => Opcode::SamplePos,
            111 => Opcode::SampleInfo,
            113 => Opcode::HsDecls,
            114 => Opcode::HsControlPointPhase,
            115 => Opcode::HsForkPhase,
            116 => Opcode::HsJoinPhase,
            117 => Opcode::EmitStream,
            118 => Opcode::CutStream,
            119 => Opcode::EmitthencutStream,
            120 => Opcode::InterfaceCall,
            121 => Opcode::Bufinfo,
            122 => Opcode::DerivRtxCoarse,
            123 => Opcode::DerivRtxFine,
            124 => Opcode::DerivRtyCoarse,
            125 => Opcode::DerivRtyFine,
            126 => Opcode::Gather4C,
            127 => Opcode::Gather4Po,
            128 => Opcode::Gather4PoC,
            129 => Opcode::Rcp,
            130 => Opcode::F32tof16,
            131 => Opcode::F16tof32,
            132 => Opcode::Uaddc,
            133 => Opcode::Usubb,
            134 => Opcode::Countbits,
            135 => Opcode::FirstbitHi,
            136 => Opcode::FirstbitLo,
            137 => Opcode::FirstbitShi,
            138 => Opcode::Ubfe,
            139 => Opcode::Ibfe,
            140 => Opcode::Bfi,
            141 => Opcode::Bfrev,
            142 => Opcode::Swapc,
            143 => Opcode::DclStream,
            144 => Opcode::DclFunctionBody,
            145 => Opcode::DclFunctionTable,
            146 => Opcode::DclInterface,
            147 => Opcode::DclInputControlPointCount,
            148 => Opcode::DclOutputControlPointCount,
            149 => Opcode::DclTessDomain,
            150 => Opcode::DclTessPartitioning,
            151 => Opcode::DclTessOutputPrimitive,
            152 => Opcode::DclHsMaxTessfactor,
            153 => Opcode::DclHsForkPhaseInstanceCount,
            154 => Opcode::DclHsJoinPhaseInstanceCount,
            155 => Opcode::DclThreadGroup,
            156 => Opcode::DclUnorderedAccessViewTyped,
            157 => Opcode::DclUnorderedAccessViewRaw,
            158 => Opcode::DclUnorderedAccessViewStructured,
            159 => Opcode::DclThreadGroupSharedMemoryRaw,
            160 => Opcode::DclThreadGroupSharedMemoryStructured,
            161 => Opcode::DclResourceRaw,
            162 => Opcode::DclResourceStructured,
            163 => Opcode::LdUavTyped,
            164 => Opcode::StoreUavTyped,
            165 => Opcode::LdRaw,
            166 => Opcode::StoreRaw,
            167 => Opcode::LdStructured,
            168 => Opcode::StoreStructured,
            169 => Opcode::AtomicAnd,
            170 => Opcode::AtomicOr,
            171 => Opcode::AtomicXor,
            172 => Opcode::AtomicCmpStore,
            173 => Opcode::AtomicIadd,
            174 => Opcode::AtomicImax,
            175 => Opcode::AtomicImin,
            176 => Opcode::AtomicUmax,
            177 => Opcode::AtomicUmin,
            178 => Opcode::ImmAtomicAlloc,
            179 => Opcode::ImmAtomicConsume,
            180 => Opcode::ImmAtomicIadd,
            181 => Opcode::ImmAtomicAnd,
            182 => Opcode::ImmAtomicOr,
            183 => Opcode::ImmAtomicXor,
            184 => Opcode::ImmAtomicExch,
            185 => Opcode::ImmAtomicCmpExch,
            186 => Opcode::ImmAtomicImax,
            187 => Opcode::ImmAtomicImin,
            188 => Opcode::ImmAtomicUmax,
            189 => Opcode::ImmAtomicUmin,
            190 => Opcode::Sync,
            191 => Opcode::Dadd,
            192 => Opcode::Dmax,
            193 => Opcode::Dmin,
            194 => Opcode::Dmul,
            195 => Opcode::Deq,
            196 => Opcode::Dge,
            197 => Opcode::Dlt,
            198 => Opcode::Dne,
            199 => Opcode::Dmov,
            200 => Opcode::Dmovc,
            201 => Opcode::Dtof,
            202 => Opcode::Ftod,
            203 => Opcode::EvalSnapped,
            204 => Opcode::EvalSampleIndex,
            205 => Opcode::EvalCentroid,
            206 => Opcode::DclGsInstanceCount,
            207 => Opcode::Abort,
            208 => Opcode::DebugBreak,
            210 => Opcode::Ddiv,
            211 => Opcode::Dfma,
            212 => Opcode::Drcp,
            213 => Opcode::Msad,
            214 => Opcode::Dtoi,
            215 => Opcode::Dtou,
            216 => Opcode::Itod,
            217 => Opcode::Utod,
            219 => Opcode::Gather4Feedback,
            220 => Opcode::Gather4CFeedback,
            221 => Opcode::Gather4PoFeedback,
            222 => Opcode::Gather4PoCFeedback,
            223 => Opcode::LdFeedback,
            224 => Opcode::LdMsFeedback,
            225 => Opcode::LdUavTypedFeedback,
            226 => Opcode::LdRawFeedback,
            227 => Opcode::LdStructuredFeedback,
            228 => Opcode::SampleLFeedback,
            229 => Opcode::SampleCLzFeedback,
            230 => Opcode::SampleClampFeedback,
            231 => Opcode::SampleBClampFeedback,
            232 => Opcode::SampleDClampFeedback,
            233 => Opcode::SampleCClampFeedback,
            234 => Opcode::CheckAccessFullyMapped,
            _ => return None,
        })
    }

    /// The opcode's number, as the header gives it.
    pub fn raw(self) -> u32 {
        u32::from(self as u16)
    }

    /// The opcode's name: the header's constant without its `D3D1x_SB_OPCODE_` prefix, in lower case
    /// (`sample_c_lz`, `dcl_input_ps_siv`). Used in error messages; a disassembler may spell mnemonics its own way.
    pub fn name(self) -> &'static str {
        match self {
            Opcode::Add => "add",
            Opcode::And => "and",
            Opcode::Break => "break",
            Opcode::Breakc => "breakc",
            Opcode::Call => "call",
            Opcode::Callc => "callc",
            Opcode::Case => "case",
            Opcode::Continue => "continue",
            Opcode::Continuec => "continuec",
            Opcode::Cut => "cut",
            Opcode::Default => "default",
            Opcode::DerivRtx => "deriv_rtx",
            Opcode::DerivRty => "deriv_rty",
            Opcode::Discard => "discard",
            Opcode::Div => "div",
            Opcode::Dp2 => "dp2",
            Opcode::Dp3 => "dp3",
            Opcode::Dp4 => "dp4",
            Opcode::Else => "else",
            Opcode::Emit => "emit",
            Opcode::Emitthencut => "emitthencut",
            Opcode::Endif => "endif",
            Opcode::Endloop => "endloop",
            Opcode::Endswitch => "endswitch",
            Opcode::Eq => "eq",
            Opcode::Exp => "exp",
            Opcode::Frc => "frc",
            Opcode::Ftoi => "ftoi",
            Opcode::Ftou => "ftou",
            Opcode::Ge => "ge",
            Opcode::Iadd => "iadd",
            Opcode::If => "if",
            Opcode::Ieq => "ieq",
            Opcode::Ige => "ige",
            Opcode::Ilt => "ilt",
            Opcode::Imad => "imad",
            Opcode::Imax => "imax",
            Opcode::Imin => "imin",
            Opcode::Imul => "imul",
            Opcode::Ine => "ine",
            Opcode::Ineg => "ineg",
            Opcode::Ishl => "ishl",
            Opcode::Ishr => "ishr",
            Opcode::Itof => "itof",
            Opcode::Label => "label",
            Opcode::Ld => "ld",
            Opcode::LdMs => "ld_ms",
            Opcode::Log => "log",
            Opcode::Loop => "loop",
            Opcode::Lt => "lt",
            Opcode::Mad => "mad",
            Opcode::Min => "min",
            Opcode::Max => "max",
            Opcode::CustomData => "customdata",
            Opcode::Mov => "mov",
            Opcode::Movc => "movc",
            Opcode::Mul => "mul",
            Opcode::Ne => "ne",
            Opcode::Nop => "nop",
            Opcode::Not => "not",
            Opcode::Or => "or",
            Opcode::Resinfo => "resinfo",
            Opcode::Ret => "ret",
            Opcode::Retc => "retc",
            Opcode::RoundNe => "round_ne",
            Opcode::RoundNi => "round_ni",
            Opcode::RoundPi => "round_pi",
            Opcode::RoundZ => "round_z",
            Opcode::Rsq => "rsq",
            Opcode::Sample => "sample",
            Opcode::SampleC => "sample_c",
            Opcode::SampleCLz => "sample_c_lz",
            Opcode::SampleL => "sample_l",
            Opcode::SampleD => "sample_d",
            Opcode::SampleB => "sample_b",
            Opcode::Sqrt => "sqrt",
            Opcode::Switch => "switch",
            Opcode::Sincos => "sincos",
            Opcode::Udiv => "udiv",
            Opcode::Ult => "ult",
            Opcode::Uge => "uge",
            Opcode::Umul => "umul",
            Opcode::Umad => "umad",
            Opcode::Umax => "umax",
            Opcode::Umin => "umin",
            Opcode::Ushr => "ushr",
            Opcode::Utof => "utof",
            Opcode::Xor => "xor",
            Opcode::DclResource => "dcl_resource",
            Opcode::DclConstantBuffer => "dcl_constant_buffer",
            Opcode::DclSampler => "dcl_sampler",
            Opcode::DclIndexRange => "dcl_index_range",
            Opcode::DclGsOutputPrimitiveTopology => "dcl_gs_output_primitive_topology",
            Opcode::DclGsInputPrimitive => "dcl_gs_input_primitive",
            Opcode::DclMaxOutputVertexCount => "dcl_max_output_vertex_count",
            Opcode::DclInput => "dcl_input",
            Opcode::DclInputSgv => "dcl_input_sgv",
            Opcode::DclInputSiv => "dcl_input_siv",
            Opcode::DclInputPs => "dcl_input_ps",
            Opcode::DclInputPsSgv => "dcl_input_ps_sgv",
            Opcode::DclInputPsSiv => "dcl_input_ps_siv",
            Opcode::DclOutput => "dcl_output",
            Opcode::DclOutputSgv => "dcl_output_sgv",
            Opcode::DclOutputSiv => "dcl_output_siv",
            Opcode::DclTemps => "dcl_temps",
            Opcode::DclIndexableTemp => "dcl_indexable_temp",
            Opcode::DclGlobalFlags => "dcl_global_flags",
            Opcode::Lod => "lod",
            Opcode::Gather4 => "gather4",
            Opcode::SamplePos => "sample_pos",
            Opcode::SampleInfo => "sample_info",
            Opcode::HsDecls => "hs_decls",
            Opcode::HsControlPointPhase => "hs_control_point_phase",
            Opcode::HsForkPhase => "hs_fork_phase",
            Opcode::HsJoinPhase => "hs_join_phase",
            Opcode::EmitStream => "emit_stream",
            Opcode::CutStream => "cut_stream",
            Opcode::EmitthencutStream => "emitthencut_stream",
            Opcode::InterfaceCall => "interface_call",
            Opcode::Bufinfo => "bufinfo",
            Opcode::DerivRtxCoarse => "deriv_rtx_coarse",
            Opcode::DerivRtxFine => "deriv_rtx_fine",
            Opcode::DerivRtyCoarse => "deriv_rty_coarse",
            Opcode::DerivRtyFine => "deriv_rty_fine",
            Opcode::Gather4C => "gather4_c",
            Opcode::Gather4Po => "gather4_po",
            Opcode::Gather4PoC => "gather4_po_c",
            Opcode::Rcp => "rcp",
            Opcode::F32tof16 => "f32tof16",
            Opcode::F16tof32 => "f16tof32",
            Opcode::Uaddc => "uaddc",
            Opcode::Usubb => "usubb",
            Opcode::Countbits => "countbits",
            Opcode::FirstbitHi => "firstbit_hi",
            Opcode::FirstbitLo => "firstbit_lo",
            Opcode::FirstbitShi => "firstbit_shi",
            Opcode::Ubfe => "ubfe",
            Opcode::Ibfe => "ibfe",
            Opcode::Bfi => "bfi",
            Opcode::Bfrev => "bfrev",
            Opcode::Swapc => "swapc",
            Opcode::DclStream => "dcl_stream",
            Opcode::DclFunctionBody => "dcl_function_body",
            Opcode::DclFunctionTable => "dcl_function_table",
            Opcode::DclInterface => "dcl_interface",
            Opcode::DclInputControlPointCount => "dcl_input_control_point_count",
            Opcode::DclOutputControlPointCount => "dcl_output_control_point_count",
            Opcode::DclTessDomain => "dcl_tess_domain",
            Opcode::DclTessPartitioning => "dcl_tess_partitioning",
            Opcode::DclTessOutputPrimitive => "dcl_tess_output_primitive",
            Opcode::DclHsMaxTessfactor => "dcl_hs_max_tessfactor",
            Opcode::DclHsForkPhaseInstanceCount => "dcl_hs_fork_phase_instance_count",
            Opcode::DclHsJoinPhaseInstanceCount => "dcl_hs_join_phase_instance_count",
            Opcode::DclThreadGroup => "dcl_thread_group",
            Opcode::DclUnorderedAccessViewTyped => "dcl_unordered_access_view_typed",
            Opcode::DclUnorderedAccessViewRaw => "dcl_unordered_access_view_raw",
            Opcode::DclUnorderedAccessViewStructured => "dcl_unordered_access_view_structured",
            Opcode::DclThreadGroupSharedMemoryRaw => "dcl_thread_group_shared_memory_raw",
            Opcode::DclThreadGroupSharedMemoryStructured => "dcl_thread_group_shared_memory_structured",
            Opcode::DclResourceRaw => "dcl_resource_raw",
            Opcode::DclResourceStructured => "dcl_resource_structured",
            Opcode::LdUavTyped => "ld_uav_typed",
            Opcode::StoreUavTyped => "store_uav_typed",
            Opcode::LdRaw => "ld_raw",
            Opcode::StoreRaw => "store_raw",
            Opcode::LdStructured => "ld_structured",
            Opcode::StoreStructured => "store_structured",
            Opcode::AtomicAnd => "atomic_and",
            Opcode::AtomicOr => "atomic_or",
            Opcode::AtomicXor => "atomic_xor",
            Opcode::AtomicCmpStore => "atomic_cmp_store",
            Opcode::AtomicIadd => "atomic_iadd",
            Opcode::AtomicImax => "atomic_imax",
            Opcode::AtomicImin => "atomic_imin",
            Opcode::AtomicUmax => "atomic_umax",
            Opcode::AtomicUmin => "atomic_umin",
            Opcode::ImmAtomicAlloc => "imm_atomic_alloc",
            Opcode::ImmAtomicConsume => "imm_atomic_consume",
            Opcode::ImmAtomicIadd => "imm_atomic_iadd",
            Opcode::ImmAtomicAnd => "imm_atomic_and",
            Opcode::ImmAtomicOr => "imm_atomic_or",
            Opcode::ImmAtomicXor => "imm_atomic_xor",
            Opcode::ImmAtomicExch => "imm_atomic_exch",
            Opcode::ImmAtomicCmpExch => "imm_atomic_cmp_exch",
            Opcode::ImmAtomicImax => "imm_atomic_imax",
            Opcode::ImmAtomicImin => "imm_atomic_imin",
            Opcode::ImmAtomicUmax => "imm_atomic_umax",
            Opcode::ImmAtomicUmin => "imm_atomic_umin",
            Opcode::Sync => "sync",
            Opcode::Dadd => "dadd",
            Opcode::Dmax => "dmax",
            Opcode::Dmin => "dmin",
            Opcode::Dmul => "dmul",
            Opcode::Deq => "deq",
            Opcode::Dge => "dge",
            Opcode::Dlt => "dlt",
            Opcode::Dne => "dne",
            Opcode::Dmov => "dmov",
            Opcode::Dmovc => "dmovc",
            Opcode::Dtof => "dtof",
            Opcode::Ftod => "ftod",
            Opcode::EvalSnapped => "eval_snapped",
            Opcode::EvalSampleIndex => "eval_sample_index",
            Opcode::EvalCentroid => "eval_centroid",
            Opcode::DclGsInstanceCount => "dcl_gs_instance_count",
            Opcode::Abort => "abort",
            Opcode::DebugBreak => "debug_break",
            Opcode::Ddiv => "ddiv",
            Opcode::Dfma => "dfma",
            Opcode::Drcp => "drcp",
            Opcode::Msad => "msad",
            Opcode::Dtoi => "dtoi",
            Opcode::Dtou => "dtou",
            Opcode::Itod => "itod",
            Opcode::Utod => "utod",
            Opcode::Gather4Feedback => "gather4_feedback",
            Opcode::Gather4CFeedback => "gather4_c_feedback",
            Opcode::Gather4PoFeedback => "gather4_po_feedback",
            Opcode::Gather4PoCFeedback => "gather4_po_c_feedback",
            Opcode::LdFeedback => "ld_feedback",
            Opcode::LdMsFeedback => "ld_ms_feedback",
            Opcode::LdUavTypedFeedback => "ld_uav_typed_feedback",
            Opcode::LdRawFeedback => "ld_raw_feedback",
            Opcode::LdStructuredFeedback => "ld_structured_feedback",
            Opcode::SampleLFeedback => "sample_l_feedback",
            Opcode::SampleCLzFeedback => "sample_c_lz_feedback",
            Opcode::SampleClampFeedback => "sample_clamp_feedback",
            Opcode::SampleBClampFeedback => "sample_b_clamp_feedback",
            Opcode::SampleDClampFeedback => "sample_d_clamp_feedback",
            Opcode::SampleCClampFeedback => "sample_c_clamp_feedback",
            Opcode::CheckAccessFullyMapped => "check_access_fully_mapped",
        }
    }
}
impl Opcode {
    /// Whether this is a declaration (`dcl_*`): its operands follow a layout of its own, described in the header
    /// next to each declaration, and decode into a [`super::Declaration`].
    pub fn is_declaration(self) -> bool {
        self.name().starts_with("dcl_")
    }

    /// Whether bit 18 of the opcode token chooses between a zero and a non-zero test of the first source
    /// (`D3D10_SB_INSTRUCTION_TEST_BOOLEAN`: `if_z`/`if_nz`, `breakc`, `continuec`, `callc`, `retc`, `discard`).
    pub fn has_test_boolean(self) -> bool {
        matches!(
            self,
            Opcode::If | Opcode::Breakc | Opcode::Continuec | Opcode::Callc | Opcode::Retc | Opcode::Discard
        )
    }

    /// Whether bit 31 of the opcode token means "the next DWORD is the instruction's real length" rather than
    /// "an extended opcode token follows": the header says so for `dcl_function_body`, `dcl_function_table`,
    /// `dcl_interface` and `interface_call`, whose length may not fit the 7-bit field.
    pub fn has_length_dword_form(self) -> bool {
        matches!(
            self,
            Opcode::DclFunctionBody | Opcode::DclFunctionTable | Opcode::DclInterface | Opcode::InterfaceCall
        )
    }
}

/// Classes of instructions (22.7 flow control, 22.8 geometry, 22.17 unordered access, tiled-resource feedback ...),
/// one list each, which the disassembler's syntax and the interpreter's builder both ask.
impl Opcode {
    /// Whether this is a flow-control instruction of 22.7 (`if`/`else`/`endif`, the loops, `switch` and its cases,
    /// `break`/`continue`, `call`/`ret` and their conditional forms, `label`, `nop`, `discard`): none has a
    /// destination, and the interpreter runs them across lanes rather than per lane.
    pub fn is_flow_control(self) -> bool {
        use Opcode as O;
        matches!(
            self,
            O::Nop
                | O::Else
                | O::Endif
                | O::Loop
                | O::Endloop
                | O::Break
                | O::Continue
                | O::Endswitch
                | O::Default
                | O::Ret
                | O::Label
                | O::Call
                | O::Case
        ) || self.has_flow_operand()
    }

    /// Whether this is a flow-control instruction that reads an operand for each lane: the condition of `if`,
    /// `breakc`, `continuec`, `callc`, `retc` and `discard`, the selector of `switch`.
    pub fn has_flow_operand(self) -> bool {
        use Opcode as O;
        matches!(
            self,
            O::If | O::Breakc | O::Continuec | O::Switch | O::Callc | O::Retc | O::Discard
        )
    }

    /// Whether this is a geometry program's vertex emission or strip cut (22.8), with or without a stream.
    pub fn is_geometry_emit(self) -> bool {
        use Opcode as O;
        matches!(
            self,
            O::Emit | O::Emitthencut | O::Cut | O::EmitStream | O::CutStream | O::EmitthencutStream
        )
    }

    /// Whether this opens a hull program phase (`hs_decls`, `hs_control_point_phase`, `hs_fork_phase`,
    /// `hs_join_phase`).
    pub fn is_hull_phase(self) -> bool {
        use Opcode as O;
        matches!(
            self,
            O::HsDecls | O::HsControlPointPhase | O::HsForkPhase | O::HsJoinPhase
        )
    }

    /// Whether this is an atomic operation that returns nothing (`atomic_*`, 22.17).
    pub fn is_atomic(self) -> bool {
        use Opcode as O;
        matches!(
            self,
            O::AtomicAnd
                | O::AtomicOr
                | O::AtomicXor
                | O::AtomicCmpStore
                | O::AtomicIadd
                | O::AtomicImax
                | O::AtomicImin
                | O::AtomicUmax
                | O::AtomicUmin
        )
    }

    /// Whether this is an atomic operation that returns the value it replaced (`imm_atomic_*`, 22.17), which has
    /// two destinations: the returned value and the memory written.
    pub fn is_immediate_atomic(self) -> bool {
        use Opcode as O;
        matches!(
            self,
            O::ImmAtomicAlloc
                | O::ImmAtomicConsume
                | O::ImmAtomicIadd
                | O::ImmAtomicAnd
                | O::ImmAtomicOr
                | O::ImmAtomicXor
                | O::ImmAtomicExch
                | O::ImmAtomicCmpExch
                | O::ImmAtomicImax
                | O::ImmAtomicImin
                | O::ImmAtomicUmax
                | O::ImmAtomicUmin
        )
    }

    /// Whether this reads or writes an unordered access view (or thread-group shared memory, which the stores and
    /// atomics address too): `ld_uav_typed`, `store_uav_typed`, `store_raw`, `store_structured` and every atomic
    /// (22.17). Their operands are unsigned integers.
    pub fn is_uav_operation(self) -> bool {
        use Opcode as O;
        matches!(
            self,
            O::LdUavTyped | O::StoreUavTyped | O::StoreRaw | O::StoreStructured
        ) || self.is_atomic()
            || self.is_immediate_atomic()
    }

    /// Whether this is a tiled-resource feedback form of a load, sample or gather (the `_s` mnemonics, 5.9.4.5),
    /// which writes a second destination: the feedback for `check_access_fully_mapped`.
    pub fn is_feedback(self) -> bool {
        use Opcode as O;
        matches!(
            self,
            O::Gather4Feedback
                | O::Gather4CFeedback
                | O::Gather4PoFeedback
                | O::Gather4PoCFeedback
                | O::LdFeedback
                | O::LdMsFeedback
                | O::LdUavTypedFeedback
                | O::LdRawFeedback
                | O::LdStructuredFeedback
                | O::SampleLFeedback
                | O::SampleCLzFeedback
                | O::SampleClampFeedback
                | O::SampleBClampFeedback
                | O::SampleDClampFeedback
                | O::SampleCClampFeedback
        )
    }

    /// Whether this is a screen-space derivative (22.5.2-5): SM4's `deriv_rtx`/`deriv_rty` and SM5's `_coarse` and
    /// `_fine` forms.
    pub fn is_derivative(self) -> bool {
        use Opcode as O;
        matches!(
            self,
            O::DerivRtx | O::DerivRty | O::DerivRtxCoarse | O::DerivRtxFine | O::DerivRtyCoarse | O::DerivRtyFine
        )
    }

    /// Whether this samples a texture through a sampler (`sample`, `sample_b`, `sample_c`, `sample_c_lz`,
    /// `sample_l`, `sample_d`; 22.4), the feedback forms excluded.
    pub fn is_sample(self) -> bool {
        use Opcode as O;
        matches!(
            self,
            O::Sample | O::SampleB | O::SampleC | O::SampleCLz | O::SampleL | O::SampleD
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_instruction_classes_hold_the_opcodes_their_names_say() {
        let names = |class: fn(Opcode) -> bool| -> Vec<&str> {
            Opcode::ALL
                .iter()
                .copied()
                .filter(|&o| class(o))
                .map(Opcode::name)
                .collect()
        };
        assert_eq!(names(Opcode::is_atomic).len(), 9);
        assert!(names(Opcode::is_atomic).iter().all(|n| n.starts_with("atomic_")));
        assert_eq!(names(Opcode::is_immediate_atomic).len(), 12);
        assert!(
            names(Opcode::is_immediate_atomic)
                .iter()
                .all(|n| n.starts_with("imm_atomic_"))
        );
        assert_eq!(names(Opcode::is_feedback).len(), 15);
        assert!(names(Opcode::is_feedback).iter().all(|n| n.ends_with("_feedback")));
        assert_eq!(names(Opcode::is_derivative).len(), 6);
        assert!(names(Opcode::is_derivative).iter().all(|n| n.starts_with("deriv_")));
        assert_eq!(names(Opcode::is_hull_phase).len(), 4);
        assert_eq!(names(Opcode::is_geometry_emit).len(), 6);
        assert_eq!(names(Opcode::is_sample).len(), 6);
        assert_eq!(names(Opcode::is_flow_control).len(), 20);
        assert_eq!(names(Opcode::is_uav_operation).len(), 4 + 9 + 12);
        // Every opcode with a test boolean is flow control with a condition.
        for o in Opcode::ALL {
            if o.has_test_boolean() {
                assert!(o.has_flow_operand() && o.is_flow_control(), "{}", o.name());
            }
        }
    }

    #[test]
    fn opcode_numbers_match_the_header_enum() {
        // Counted in D3D10_SB_OPCODE_TYPE, which starts at 0 and numbers each entry one past the previous.
        assert_eq!(Opcode::Add.raw(), 0);
        assert_eq!(Opcode::CustomData.raw(), 53);
        assert_eq!(Opcode::DclGlobalFlags.raw(), 106);
        assert_eq!(Opcode::Lod.raw(), 108);
        assert_eq!(Opcode::HsDecls.raw(), 113);
        assert_eq!(Opcode::Sync.raw(), 190);
        assert_eq!(Opcode::DebugBreak.raw(), 208);
        assert_eq!(Opcode::Ddiv.raw(), 210);
        assert_eq!(Opcode::Gather4Feedback.raw(), 219);
        assert_eq!(Opcode::CheckAccessFullyMapped.raw(), 234);
    }

    #[test]
    fn reserved_markers_are_not_opcodes() {
        for reserved in [107, 112, 209, 218, 235, 236, 0x7ff] {
            assert_eq!(Opcode::from_raw(reserved), None, "{reserved}");
        }
    }

    #[test]
    fn every_opcode_reads_back_from_its_number() {
        for op in Opcode::ALL {
            assert_eq!(Opcode::from_raw(op.raw()), Some(op));
        }
        assert_eq!(Opcode::ALL.len(), 231); // 237 enum entries less 5 RESERVED markers and NUM_OPCODES
    }
}
