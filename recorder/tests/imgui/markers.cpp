// markers.cpp - our own file, linked into Dear ImGui's DirectX 11 example (scripts/wine-env.sh, imgui_build) so that
// its frame has the program's markers the recorder records, without a line of ImGui's code changed: the linker's
// --wrap sends the example's calls of the DirectX 11 backend's functions here (each __wrap_X is called in place of
// X, and __real_X is X), and these call the backend unchanged:
//   ImGui_ImplDX11_Init            keeps the context's ID3DUserDefinedAnnotation (QueryInterface on the context);
//   ImGui_ImplDX11_RenderDrawData  wraps the backend's every draw of the frame in BeginEvent(L"ImGui")/EndEvent;
//   ImGui_ImplDX11_Shutdown        releases the annotation interface.
// The names are the functions' C++ (Itanium ABI) mangled names, as mingw-w64's g++ gives them.
#include <d3d11_1.h>

struct ImDrawData;

// the context's annotation interface, kept from ImGui_ImplDX11_Init to ImGui_ImplDX11_Shutdown
static ID3DUserDefinedAnnotation *annotation;

extern "C" bool __real__Z19ImGui_ImplDX11_InitP12ID3D11DeviceP19ID3D11DeviceContext(ID3D11Device *device,
                                                                                   ID3D11DeviceContext *context);
extern "C" void __real__Z29ImGui_ImplDX11_RenderDrawDataP10ImDrawData(ImDrawData *draw_data);
extern "C" void __real__Z23ImGui_ImplDX11_Shutdownv();

extern "C" bool __wrap__Z19ImGui_ImplDX11_InitP12ID3D11DeviceP19ID3D11DeviceContext(ID3D11Device *device,
                                                                                   ID3D11DeviceContext *context)
{
    if (context && !annotation &&
        FAILED(context->QueryInterface(__uuidof(ID3DUserDefinedAnnotation), (void **)&annotation)))
        annotation = nullptr;
    return __real__Z19ImGui_ImplDX11_InitP12ID3D11DeviceP19ID3D11DeviceContext(device, context);
}

extern "C" void __wrap__Z29ImGui_ImplDX11_RenderDrawDataP10ImDrawData(ImDrawData *draw_data)
{
    if (annotation)
        annotation->BeginEvent(L"ImGui");
    __real__Z29ImGui_ImplDX11_RenderDrawDataP10ImDrawData(draw_data);
    if (annotation)
        annotation->EndEvent();
}

extern "C" void __wrap__Z23ImGui_ImplDX11_Shutdownv()
{
    __real__Z23ImGui_ImplDX11_Shutdownv();
    if (annotation)
        annotation->Release();
    annotation = nullptr;
}
