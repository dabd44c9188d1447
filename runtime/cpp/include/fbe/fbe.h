// Fast Binary Encoding C++ runtime (header-only, C++17).
//
// Generated headers include the parts they need; user code may include this
// umbrella header instead.

#pragma once

#include "fbe/buffer.h"
#include "fbe/common.h"
#include "fbe/decimal.h"
#include "fbe/final.h"
#include "fbe/flags.h"
#include "fbe/members.h"
#include "fbe/model.h"
#include "fbe/scalar.h"
#include "fbe/text.h"
#include "fbe/uuid.h"
#include "fbe/versioned.h"
