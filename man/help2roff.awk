# help2roff.awk: turns a program's --help text into the roff OPTIONS section of its man page
# (man/CMakeLists.txt runs it at build time, so the man pages follow the flags).
# An item is a line whose first words are followed by two or more spaces and a description;
# deeper-indented lines continue the item; "Heading:" lines become subsections.
function esc(s) {
    gsub(/\\/, "\\e", s)
    gsub(/-/, "\\-", s)
    if (s ~ /^[.']/) s = "\\&" s
    return s
}
BEGIN { in_usage = 0; started = 0 }
/^usage:/ { in_usage = 1; next }
in_usage && /^       / { next }
{ in_usage = 0 }
/^[[:space:]]*$/ { if (started) para = 1; next }
{
    line = $0
    indent = match(line, /[^ ]/) - 1
    body = substr(line, indent + 1)
    gap = match(body, /[^ ]  +[^ ]/)
    started = 1
    if (indent == 0 && body ~ /:$/ && body !~ /  /) { print ".SS " esc(substr(body, 1, length(body) - 1)); para = 0; next }
    if (body ~ /^-/ || (gap && indent < 6)) {    # an item: flag or word, then its description
        head = gap ? substr(body, 1, gap) : body
        rest = gap ? substr(body, gap + 1) : ""
        sub(/^ +/, "", rest)
        print ".TP"; print "\\fB" esc(head) "\\fR"
        if (rest != "") print esc(rest)
        para = 0; next
    }
    if (indent >= 6) { print esc(body); next } # the item above continues
    if (para) { print ".PP"; para = 0 }
    print esc(body)
}
