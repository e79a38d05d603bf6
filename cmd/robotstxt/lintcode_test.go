package main

import (
	"os"
	"strings"
	"testing"
)

func TestSeverityOfEveryCodeIsDocumented(t *testing.T) {
	src, err := os.ReadFile("lint.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{
		codeNotRobots, codeOverLimit, codeOverLimitNoRules, codeOutsideGroup, codeAgentCut, codeAgentNoToken,
		codeNoSlash, codeShadowed, codeDirectiveLost, codeKeyTypo, codeSitemapRelative, codeCrawlDelay,
		codeUnsupported, codeDuplicate, codeBadValue, codeNoRules, codeUTF16, codeLineTooLong, codeNUL,
		codeInvalidUTF8, codeNoDirectives, codeUnknownKey, codeMisspeltKey, codeMissingColon, codeAgentToken,
		codeNotDirective, codeCharset, codeDisallowAll, codeParser, codeTooMany, codeUnknownDropped,
	} {
		// The help lists each code under its severity.
		section := map[severity]string{sevError: "Errors:", sevWarning: "Warnings:", sevInfo: "Infos:"}[severityOf(code)]
		i := strings.Index(string(src), section)
		j := strings.Index(string(src)[i:], "\n\n")
		if i < 0 || j < 0 || !strings.Contains(string(src)[i:i+j], code) {
			t.Errorf("lint help does not list %s under %s", code, section)
		}
	}
}
