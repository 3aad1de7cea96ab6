module ${PROJECT}

go 1.25

require (
	github.com/vendor-container/pulumi-vendor-container/sdk/go v0.2.0
	github.com/pulumi/pulumi/sdk/v3 v3.274.1
)
