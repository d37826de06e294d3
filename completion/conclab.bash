# Bash completion for conclab, from the tool itself: scenarios, options, variant names (after the last comma of
# --variants) and the words a parameter takes. Nothing is run but the parse: `conclab "[suggest:N]" LINE` prints the
# completions of LINE at position N (System.CommandLine's suggest directive) and exits.
#   source completion/conclab.bash        # or copy it into ~/.local/share/bash-completion/completions/conclab
_conclab_complete() {
  local line="${COMP_LINE#*[[:space:]]}"
  [ "$line" = "$COMP_LINE" ] && line=""
  local at=$(( COMP_POINT - ${#COMP_LINE} + ${#line} ))
  (( at < 0 )) && at=0
  # Each candidate is compared with the word typed as plain text: nothing typed or printed is ever expanded.
  local cur="${COMP_WORDS[COMP_CWORD]}" candidate
  COMPREPLY=()
  while IFS= read -r candidate; do
    [[ "$candidate" == "$cur"* ]] && COMPREPLY+=("$candidate")
  done < <(conclab "[suggest:$at]" "$line" 2>/dev/null)
}
complete -o default -F _conclab_complete conclab
