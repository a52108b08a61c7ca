/* bcryptprimitives.dll for Wine 8, test use only: Rust's standard library (1.78 and later) imports ProcessPrng,
 * which Wine 8's bcryptprimitives lacks. This stand-in beside the test program answers it with RtlGenRandom
 * (advapi32's SystemFunction036), as Windows' own implementation is a CSPRNG of the same contract. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length)
    {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
