# source_tarball.cmake - ortkit's own source as a tarball, for the Debian 11
# root an installed ortkit makes (share/ortkit/root): in a clone, the files
# git tracks, as they are now (a stray file in the clone, a key made while
# trying `bundle keygen` say, is never installed: the files left out are
# counted in a message); else the tree without build outputs and
# downloads.  Run with -DSRC=DIR -DOUT=FILE.
find_program(GIT git)
if(GIT AND EXISTS "${SRC}/.git")
  # One name a line (-c core.quotepath=off: names as they are; ortkit's have
  # no newlines).
  execute_process(COMMAND "${GIT}" -C "${SRC}" -c core.quotepath=off ls-files --cached
                  OUTPUT_VARIABLE files RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "git ls-files failed in ${SRC}")
  endif()
  execute_process(COMMAND "${GIT}" -C "${SRC}" -c core.quotepath=off ls-files --others
                          --exclude-standard
                  OUTPUT_VARIABLE untracked RESULT_VARIABLE rc)
  if(rc EQUAL 0 AND NOT untracked STREQUAL "")
    string(REGEX MATCHALL "\n" newlines "${untracked}")
    list(LENGTH newlines n_untracked)
    message(STATUS "ortkit-src.tar.gz: ${n_untracked} file(s) git does not track left out "
                   "(git add them to install them)")
  endif()
  string(REPLACE "\n" ";" files "${files}")
  set(list "")
  foreach(f ${files})
    if(EXISTS "${SRC}/${f}" AND NOT IS_SYMLINK "${SRC}/${f}")
      string(APPEND list "${f}\n")
    endif()
  endforeach()
  file(WRITE "${OUT}.list" "${list}")
  execute_process(COMMAND tar -czf "${OUT}.part" -C "${SRC}" -T "${OUT}.list" RESULT_VARIABLE rc)
  file(REMOVE "${OUT}.list")
else()
  execute_process(COMMAND tar -czf "${OUT}.part" -C "${SRC}" --exclude=./deps --exclude=./.git
                          --exclude=./build* --exclude=./out .
                  RESULT_VARIABLE rc)
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cannot make ${OUT}")
endif()
file(RENAME "${OUT}.part" "${OUT}")
