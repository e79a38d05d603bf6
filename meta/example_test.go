package meta_test

import (
	"fmt"
	"strings"

	"github.com/robotsgate/robotstxt/meta"
)

func ExampleFromHTML() {
	page := `<html><head>
<meta name="robots" content="noarchive">
<meta name="examplebot" content="noindex, nofollow">
</head><body>…</body></html>`
	d, err := meta.FromHTML(strings.NewReader(page), "ExampleBot-News", "ExampleBot")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("index:", d.Index(), "follow:", d.Follow(), "archive:", !d.NoArchive)
	// Output: index: false follow: false archive: false
}

func ExampleParse() {
	d := meta.Parse("none")
	fmt.Println(d.NoIndex, d.NoFollow)
	// Output: true true
}

func ExampleDirectives_Merge() {
	header := meta.Parse("noarchive, unavailable_after: 2030-01-01")
	tags := meta.Parse("noindex, unavailable_after: 2029-06-30")
	d := header.Merge(tags)
	fmt.Println(d.NoIndex, d.NoArchive, d.UnavailableAfter.Format("2006-01-02"))
	// Output: true true 2029-06-30
}

func ExampleTDMFromHTML() {
	page := `<html><head>
<meta name="tdm-reservation" content="1">
<meta name="tdm-policy" content="https://example.com/tdm-policy.json">
</head><body>…</body></html>`
	tdm, err := meta.TDMFromHTML(strings.NewReader(page))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("reserved:", tdm.Reservation == "1", "policy:", tdm.Policy)
	// Output: reserved: true policy: https://example.com/tdm-policy.json
}
