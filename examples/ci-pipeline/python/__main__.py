"""The Python variant of the program the sample pipelines deploy: a cluster and its nightly backup.

The same resources as ../index.ts, on the provider plugin through its generated Python SDK
(`pulumi_vendor_container`). Stack config (`Pulumi.<stack>.yaml`): `kubernetesVersion`, `location`, and `ha`
(default true; the service cannot turn it off again once on). The plugin's settings are `vendor-container:*`.
"""
import pulumi
import pulumi_vendor_container as vendor_container

config = pulumi.Config()
location = config.get("location") or "ITBG-Bergamo"
ha = config.get_bool("ha")

cluster = vendor_container.Kaas(
    "cluster",
    vendor_container.KaasArgs(
        name=f"{pulumi.get_stack()}-python-cluster",
        location=location,
        kubernetes_version=config.get("kubernetesVersion") or "1.32.5",
        node_cidr=vendor_container.NodeCidrArgs(address="10.30.0.0/16", name="cluster-nodes"),
        node_pools=[
            vendor_container.NodePoolArgs(name="system", nodes=2, instance="K4A8", data_center="ITBG-1"),
        ],
        ha=True if ha is None else ha,
        authorized_ip_ranges=["192.168.10.0/24"],
        billing_period="Month",
    ),
)

backup = vendor_container.KaasBackup(
    "nightly",
    vendor_container.KaasBackupArgs(
        kaas_id=cluster.kaas_id,
        name="nightly",
        location=location,
        retention_days=14,
        billing_period="Month",
    ),
)

pulumi.export("kaasId", cluster.kaas_id)
pulumi.export("kubeconfig", cluster.kubeconfig)  # secret: shown as [secret]
pulumi.export("kubernetesVersion", cluster.current_kubernetes_version)
pulumi.export("backupId", backup.backup_id)
