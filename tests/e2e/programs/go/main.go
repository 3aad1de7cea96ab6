// The end-to-end suite's Go program on the provider plugin's generated SDK: a cluster with two pools, a nightly
// backup of it and a registry, each built with the SDK's typed arguments; their ids, states and the cluster's
// kubeconfig are stack outputs.
package main

import (
	vendor "github.com/vendor-container/pulumi-vendor-container/sdk/go/vendorcontainer"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

const location = "ITBG-Bergamo"

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cluster, err := vendor.NewKaas(ctx, "cluster", &vendor.KaasArgs{
			Name:              pulumi.String("e2e-cluster"),
			Location:          pulumi.String(location),
			KubernetesVersion: pulumi.String("1.32.5"),
			NodeCidr:          vendor.NodeCidrArgs{Address: pulumi.String("10.20.0.0/16"), Name: pulumi.String("cluster-nodes")},
			NodePools: vendor.NodePoolArray{
				vendor.NodePoolArgs{
					Name:       pulumi.String("system"),
					Nodes:      pulumi.Float64(2),
					Instance:   pulumi.String("K4A8"),
					DataCenter: pulumi.String("ITBG-1"),
				},
				vendor.NodePoolArgs{
					Name:        pulumi.String("workers"),
					Nodes:       pulumi.Float64(2),
					Instance:    pulumi.String("K8A16"),
					DataCenter:  pulumi.String("ITBG-2"),
					Autoscaling: pulumi.Bool(true),
					MinCount:    pulumi.Float64(1),
					MaxCount:    pulumi.Float64(6),
				},
			},
			Ha: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}
		backup, err := vendor.NewKaasBackup(ctx, "nightly", &vendor.KaasBackupArgs{
			KaasId:        cluster.KaasId,
			Name:          pulumi.String("nightly"),
			Location:      pulumi.String(location),
			RetentionDays: pulumi.Float64(7),
		})
		if err != nil {
			return err
		}
		registry, err := vendor.NewRegistry(ctx, "images", &vendor.RegistryArgs{
			Name:          pulumi.String("e2e-images"),
			Location:      pulumi.String(location),
			AdminUsername: pulumi.String("ops"),
			Size:          pulumi.String("Small"),
		})
		if err != nil {
			return err
		}
		ctx.Export("kaasId", cluster.KaasId)
		ctx.Export("kubeconfig", cluster.Kubeconfig)
		ctx.Export("backupState", backup.State)
		ctx.Export("registryId", registry.RegistryId)
		return nil
	})
}
