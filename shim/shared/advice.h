/* Advice said alike by the shim's report (C) and doctor (C++), so that both name one command. */
#pragma once

/* Under LD_PRELOAD the shim sees only dlopen(): a cuDNN a program or a framework's library links
 * (DT_NEEDED) is the loader's alone; LD_AUDIT sees every search the loader makes. */
#define CUDNN_COMPAT_SHIM_ON "export LD_AUDIT=$(cudnn-compat shim-path)"
#define CUDNN_COMPAT_USE_AUDIT CUDNN_COMPAT_SHIM_ON "; unset LD_PRELOAD"
