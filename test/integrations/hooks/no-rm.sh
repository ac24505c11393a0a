# A subprocess pre_tool_use hook in POSIX sh: deny any call whose request mentions `rm -rf`, allow the
# rest. It reads the whole request (one JSON object) and answers with one JSON object.
request=$(cat)
case "$request" in
  *'rm -rf'*) printf '%s\n' '{"decision":"deny","reason":"rm -rf is not allowed here"}' ;;
  *) printf '%s\n' '{"decision":"allow"}' ;;
esac
