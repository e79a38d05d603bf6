module github.com/robotsgate/robotstxt/internal/bench

go 1.26.0

require (
	github.com/klauspost/compress v1.20.3
	github.com/robotsgate/robotstxt v0.1.0
	github.com/temoto/robotstxt v1.1.2
)

require (
	github.com/hashicorp/golang-lru/v2 v2.0.7 // indirect
	github.com/pquerna/cachecontrol v0.2.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
