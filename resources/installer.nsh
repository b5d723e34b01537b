; The Windows installer registers the console's redirect scheme, ob-console://, for the current user
; (electron-builder's "protocols" covers macOS and Linux only); the uninstaller removes it.
!macro customInstall
  WriteRegStr SHCTX "Software\Classes\ob-console" "" "URL:OB Console redirect"
  WriteRegStr SHCTX "Software\Classes\ob-console" "URL Protocol" ""
  WriteRegStr SHCTX "Software\Classes\ob-console\DefaultIcon" "" "$INSTDIR\${APP_EXECUTABLE_FILENAME},0"
  WriteRegStr SHCTX "Software\Classes\ob-console\shell\open\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" "%1"'
!macroend

!macro customUnInstall
  DeleteRegKey SHCTX "Software\Classes\ob-console"
!macroend
