# Fails when the zh_CN translation has an unfinished entry, including strings that lupdate would add
# from the current sources (so a new tr() without a translation fails too).
file(COPY ${TS_FILE} DESTINATION ${WORK_DIR})
get_filename_component(name ${TS_FILE} NAME)
execute_process(COMMAND ${LUPDATE} ${SOURCE_DIR}/ui ${SOURCE_DIR}/app -ts ${WORK_DIR}/${name} -no-obsolete
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lupdate failed: ${err}")
endif()
file(READ ${WORK_DIR}/${name} ts)
string(REGEX MATCHALL "<source>[^<]*</source>[ \n\r\t]*<translation type=\"unfinished\"" unfinished "${ts}")
list(LENGTH unfinished n)
string(REGEX MATCHALL "<source>" all "${ts}")
list(LENGTH all total)
if(n GREATER 0)
  message(FATAL_ERROR "${n} of ${total} strings are untranslated in ${name}:\n${unfinished}")
endif()
message(STATUS "${total} strings, all translated")
