// A managed Kubernetes cluster with one node pool and a container registry on Vendor.Container, on the provider
// plugin `vendor-container`. The service settings (vendor-container:baseUrl, vendor-container:projectId,
// vendor-container:token) are stack config; see README.md.
package main

import (
	"errors"
	"fmt"

	vendor "github.com/vendor-container/pulumi-vendor-container/sdk/go/vendorcontainer"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		location := cfg.Require("location")
		stack := ctx.Stack()
		name := fmt.Sprintf("%s-%s", ctx.Project(), stack)
		// The networks that may reach the API server: private addresses unless the stack config lists yours, e.g.
		// `pulumi config set --path 'authorizedIpRanges[0]' 203.0.113.0/24`.
		ranges := []string{"10.0.0.0/8"}
		if err := cfg.TryObject("authorizedIpRanges", &ranges); err != nil && !errors.Is(err, config.ErrMissingVar) {
			return err
		}
		cluster, err := vendor.NewKaas(ctx, "cluster", &vendor.KaasArgs{
			Name:              pulumi.String(name),
			Location:          pulumi.String(location),
			KubernetesVersion: pulumi.String(cfg.Require("kubernetesVersion")),
			NodeCidr:          vendor.NodeCidrArgs{Address: pulumi.String("10.10.0.0/16"), Name: pulumi.String(stack + "-nodes")},
			NodePools: vendor.NodePoolArray{
				vendor.NodePoolArgs{
					Name:       pulumi.String("default"),
					Nodes:      pulumi.Float64(float64(cfg.RequireInt("nodeCount"))),
					Instance:   pulumi.String("K4A8"),
					DataCenter: pulumi.String("ITBG-1"),
				},
			},
			AuthorizedIpRanges: pulumi.ToStringArray(ranges),
		})
		if err != nil {
			return err
		}
		registry, err := vendor.NewRegistry(ctx, "images", &vendor.RegistryArgs{
			Name:          pulumi.String(name + "-images"),
			Location:      pulumi.String(location),
			AdminUsername: pulumi.String("ops"),
			Size:          pulumi.String("Small"),
			BillingPeriod: pulumi.String("Month"),
		})
		if err != nil {
			return err
		}
		ctx.Export("kaasId", cluster.KaasId)
		ctx.Export("kubernetesVersion", cluster.CurrentKubernetesVersion)
		// The cluster's kubeconfig, always a secret: `pulumi stack output kubeconfig --show-secrets > kubeconfig`.
		ctx.Export("kubeconfig", cluster.Kubeconfig)
		ctx.Export("registryUrl", registry.PublicBaseUrl)
		return nil
	})
}
