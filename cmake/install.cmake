# cmake/install.cmake: `cmake --install` layout (GNUInstallDirs): programs, man pages,
# desktop entry, icons, AppStream metainfo, the server's systemd unit and default config.
# The game's own rule (binary and fonts) is in client/CMakeLists.txt.
foreach(prog mazerace-server mazerace-gen mazerace-bot mazerace-coordinator)
  if(TARGET ${prog})
    install(TARGETS ${prog} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

# Man pages: the game and its tools in section 6 (games), the server in section 8.
add_subdirectory(${PROJECT_SOURCE_DIR}/man ${PROJECT_BINARY_DIR}/man)

# Desktop integration, only with the game.
if(TARGET mazerace)
  set(MR_DESKTOP ${PROJECT_SOURCE_DIR}/desktop)
  install(FILES ${MR_DESKTOP}/io.github.mazerace.mazerace.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${MR_DESKTOP}/io.github.mazerace.mazerace.metainfo.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
  install(FILES ${MR_DESKTOP}/icons/mazerace.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  foreach(size 32 48 64 128 256)
    install(FILES ${MR_DESKTOP}/icons/mazerace-${size}.png
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps RENAME mazerace.png)
  endforeach()
endif()

# The server as a service (files written by the service work: packaging/).
# /usr installs put the unit where systemd looks (systemd.pc), others under the prefix.
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  pkg_get_variable(MR_SYSTEMD_DEFAULT systemd systemdsystemunitdir)
endif()
if(NOT MR_SYSTEMD_DEFAULT)
  set(MR_SYSTEMD_DEFAULT ${CMAKE_INSTALL_PREFIX}/lib/systemd/system)
endif()
set(MR_SYSTEMD_UNITDIR ${MR_SYSTEMD_DEFAULT} CACHE PATH "Where the server's systemd unit is installed")
if(TARGET mazerace-server)
  if(EXISTS ${PROJECT_SOURCE_DIR}/packaging/mazerace-server.service)
    install(FILES ${PROJECT_SOURCE_DIR}/packaging/mazerace-server.service DESTINATION ${MR_SYSTEMD_UNITDIR})
  endif()
  if(EXISTS ${PROJECT_SOURCE_DIR}/packaging/server.conf)
    install(FILES ${PROJECT_SOURCE_DIR}/packaging/server.conf DESTINATION ${CMAKE_INSTALL_FULL_SYSCONFDIR}/mazerace)
  endif()
endif()
if(TARGET mazerace-coordinator)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/mazerace-coordinator.service DESTINATION ${MR_SYSTEMD_UNITDIR})
endif()

if(MR_TESTS)
  add_test(NAME install_layout COMMAND sh ${PROJECT_SOURCE_DIR}/tests/install/layout_test.sh ${PROJECT_BINARY_DIR})
  add_test(NAME install_desktop_files COMMAND sh ${PROJECT_SOURCE_DIR}/tests/install/desktop_files.sh ${PROJECT_SOURCE_DIR})
  find_program(MR_PYTHON3_LICENCE python3)
  if(MR_PYTHON3_LICENCE)
    add_test(NAME install_licence COMMAND ${MR_PYTHON3_LICENCE} ${PROJECT_SOURCE_DIR}/tests/install/licence_test.py
             ${PROJECT_SOURCE_DIR})
  endif()
endif()
# The match database of servers run by hand and of the service: the lock, --list-matches finding the
# service's database, the pgpass credential (scratch directories only).
if(MR_TESTS AND TARGET mazerace-server AND TARGET mazerace-bot)
  add_test(NAME install_service_db COMMAND bash ${PROJECT_SOURCE_DIR}/tests/install/service_db_test.sh
           $<TARGET_FILE:mazerace-server> $<TARGET_FILE:mazerace-bot>)
  set_tests_properties(install_service_db PROPERTIES TIMEOUT 120)
endif()
# The image builds a plain Release server: a sanitizer build links libasan/libubsan
# as well, so its ldd says nothing about the image.
if(MR_TESTS AND TARGET mazerace-server AND NOT MR_SANITIZE)
  add_test(NAME install_dockerfile COMMAND bash ${PROJECT_SOURCE_DIR}/tests/install/dockerfile_test.sh
           ${PROJECT_SOURCE_DIR} $<TARGET_FILE:mazerace-server>)
  # 77: the server has no --metrics yet, so no /healthz for the image's HEALTHCHECK.
  set_tests_properties(install_dockerfile PROPERTIES SKIP_RETURN_CODE 77)
endif()
if(MR_TESTS)
  mr_isolate_tests() # the tests above: no machine or user settings (CMakeLists.txt)
endif()
