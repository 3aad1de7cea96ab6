"""A managed Kubernetes cluster with one node pool and a container registry on Vendor.Container.

The service settings (vendor-container:baseUrl, vendor-container:projectId, vendor-container:token) are stack
config of the provider plugin `vendor-container`; see README.md.
"""
import pulumi
import pulumi_vendor_container as vendor

config = pulumi.Config()
location = config.require("location")
stack = pulumi.get_stack()
name = f"{pulumi.get_project()}-{stack}"

cluster = vendor.Kaas(
    "cluster",
    name=name,
    location=location,
    kubernetes_version=config.require("kubernetesVersion"),
    node_cidr=vendor.NodeCidrArgs(address="10.10.0.0/16", name=f"{stack}-nodes"),
    node_pools=[
        vendor.NodePoolArgs(
            name="default", nodes=config.require_int("nodeCount"), instance="K4A8", data_center="ITBG-1"
        )
    ],
    # The networks that may reach the API server: private addresses unless the stack config lists yours, e.g.
    # `pulumi config set --path 'authorizedIpRanges[0]' 203.0.113.0/24`.
    authorized_ip_ranges=config.get_object("authorizedIpRanges") or ["10.0.0.0/8"],
)

registry = vendor.Registry(
    "images",
    name=f"{name}-images",
    location=location,
    admin_username="ops",
    size="Small",
    billing_period="Month",
)

pulumi.export("kaasId", cluster.kaas_id)
pulumi.export("kubernetesVersion", cluster.current_kubernetes_version)
# The cluster's kubeconfig, always a secret: `pulumi stack output kubeconfig --show-secrets > kubeconfig`.
pulumi.export("kubeconfig", cluster.kubeconfig)
pulumi.export("registryUrl", registry.public_base_url)
