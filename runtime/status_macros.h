// Early-return helpers for absl::Status and absl::StatusOr, for every layer from the runtime up.
#ifndef CPUBRRR_RUNTIME_STATUS_MACROS_H_
#define CPUBRRR_RUNTIME_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Returns the status of `expr` from the enclosing function when it is not OK.
#define CPUBRRR_RETURN_IF_ERROR(expr)  \
  do {                                 \
    absl::Status _status = (expr);     \
    if (!_status.ok()) return _status; \
  } while (0)

#define CPUBRRR_CONCAT_INNER(a, b) a##b
#define CPUBRRR_CONCAT(a, b) CPUBRRR_CONCAT_INNER(a, b)

// Declares `lhs` from the value of the StatusOr `expr`, or returns its error.
#define CPUBRRR_ASSIGN_OR_RETURN(lhs, expr) \
  CPUBRRR_ASSIGN_OR_RETURN_IMPL(CPUBRRR_CONCAT(_status_or_, __LINE__), lhs, expr)
#define CPUBRRR_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                  \
  if (!tmp.ok()) return tmp.status();                 \
  lhs = *std::move(tmp)

#endif  // CPUBRRR_RUNTIME_STATUS_MACROS_H_
