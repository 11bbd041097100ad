# Warning flags for project targets: solfec_warnings(<target>).
function(solfec_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
  if(SOLFEC_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
